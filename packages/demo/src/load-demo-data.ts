import type { PGliteInterface } from "@electric-sql/pglite";
import { DatabaseError, NlqError } from "@nlq/engine";
import pg from "pg";
import { DemoTablesExistError } from "./demo-errors";
import type { DemoDataset } from "./demo-types";
import { generateDemoDataset } from "./generate-demo-dataset";
import { renderDemoSql } from "./render-demo-sql";

/** The part of a PGlite instance the loader uses (`exec` for the script, `query` for the existence check). */
export type DemoPglite = Pick<PGliteInterface, "exec" | "query">;

interface LoadDemoDataCommonOptions {
  /** Schema to create the tables in (created if missing). Default: "public". */
  readonly schema?: string;
  /** Drop and recreate demo tables that already exist. Default: false (refuse with `DemoTablesExistError`). */
  readonly replace?: boolean;
  /** The data set to load. Default: `generateDemoDataset()` (nlq's standard demo database). */
  readonly dataset?: DemoDataset;
}

/** Options of `loadDemoData`: exactly one target, a PostgreSQL connection URL or an open PGlite instance. */
export type LoadDemoDataOptions =
  | (LoadDemoDataCommonOptions & {
      /** PostgreSQL connection URL, e.g. `postgresql://postgres@127.0.0.1:5432/shop`. Connected with node-postgres and closed afterwards. */
      readonly url: string;
      readonly pglite?: undefined;
    })
  | (LoadDemoDataCommonOptions & {
      /** An open PGlite instance (in-memory or file-backed); it stays open. */
      readonly pglite: DemoPglite;
      readonly url?: undefined;
    });

/** What was loaded. */
export interface LoadDemoDataResult {
  readonly schema: string;
  /** Tables in creation order with their row counts. */
  readonly tables: ReadonlyArray<{ readonly name: string; readonly rows: number }>;
  readonly totalRows: number;
  readonly durationMilliseconds: number;
}

const existingTablesSql =
  "SELECT c.relname FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname = ANY($2::text[]) ORDER BY c.relname";

/**
 * Loads nlq's demo database into PostgreSQL (`url`) or an embedded PGlite (`pglite`), in one transaction:
 * either every table is there afterwards or nothing changed. Refuses with `DemoTablesExistError` when a demo
 * table already exists in the schema, unless `replace` is set.
 */
export async function loadDemoData(options: LoadDemoDataOptions): Promise<LoadDemoDataResult> {
  const started = Date.now();
  const schema = options.schema ?? "public";
  const dataset = options.dataset ?? generateDemoDataset();
  const sql = renderDemoSql(dataset, { schema, replace: options.replace ?? false });
  const names = dataset.tables.map((table) => table.definition.name);
  const load = async (driver: LoaderDriver): Promise<void> => {
    if (!options.replace) {
      const existing = await driver.query(existingTablesSql, [schema, names]).catch((error: unknown) => {
        throw asDatabaseError(error, existingTablesSql);
      });
      if (existing.rows.length > 0) {
        throw new DemoTablesExistError({ schema, tables: existing.rows.map((row) => row.relname) });
      }
    }
    try {
      await driver.exec(sql);
    } catch (error) {
      await driver.exec("ROLLBACK").catch(() => undefined);
      throw asDatabaseError(error, "nlq demo script");
    }
  };

  if (options.pglite !== undefined) {
    const pglite = options.pglite;
    await load({
      query: (text, parameters) => pglite.query<{ relname: string }>(text, parameters),
      exec: (text) => pglite.exec(text),
    });
  } else {
    const client = new pg.Client({ connectionString: options.url });
    await client.connect().catch((error: unknown) => {
      throw asDatabaseError(error, "connect");
    });
    try {
      await load({
        query: (text, parameters) => client.query<{ relname: string }>(text, parameters),
        exec: (text) => client.query(text),
      });
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  const tables = dataset.tables.map((table) => ({ name: table.definition.name, rows: table.rows.length }));
  return {
    schema,
    tables,
    totalRows: tables.reduce((sum, table) => sum + table.rows, 0),
    durationMilliseconds: Date.now() - started,
  };
}

/** The two calls the loader needs from a driver (node-postgres or PGlite): a parameterised query and a script. */
interface LoaderDriver {
  query(sql: string, parameters: unknown[]): Promise<{ rows: { relname: string }[] }>;
  exec(sql: string): Promise<unknown>;
}

/** Wraps a driver error (node-postgres or PGlite, both carry `code`) in a `DatabaseError`; NlqErrors pass through. */
function asDatabaseError(error: unknown, sql: string): NlqError {
  if (NlqError.isInstance(error)) return error;
  const fields = (typeof error === "object" && error !== null ? error : {}) as {
    code?: unknown;
    message?: unknown;
    detail?: unknown;
    hint?: unknown;
  };
  const code = typeof fields.code === "string" && /^[0-9A-Z]{5}$/.test(fields.code) ? fields.code : "08000";
  const message = typeof fields.message === "string" ? fields.message : String(error);
  return new DatabaseError(`loading the demo database failed: ${message}`, {
    sql,
    code,
    ...(typeof fields.detail === "string" ? { detail: fields.detail } : {}),
    ...(typeof fields.hint === "string" ? { hint: fields.hint } : {}),
    cause: error,
  });
}
