import { type Catalog, fetchSampleValues, introspectCatalog, runReadOnly } from "@nlq/engine";
import { withUserSession } from "./user-session";
import type { WebUser } from "./web-user";

/** Most tables the schema page lists. */
const maximumSchemaTables = 200;

/** One table of the schema page: what the signed-in role may read of it. */
export interface ReadableTable {
  readonly name: string;
  readonly kind: string;
  readonly description: string | null;
  readonly primaryKey: readonly string[];
  readonly columns: ReadonlyArray<{
    readonly name: string;
    readonly type: string;
    readonly description: string | null;
    /** A few values (stored tables, read as the role: row-level security applies), or an enum's labels. */
    readonly values: readonly string[];
  }>;
  /** `(customer_id) → public.customers (customer_id)`. */
  readonly foreignKeys: readonly string[];
}

/** The catalog as the schema page shows it (pure: tests pass a catalog). */
export function readableTables(catalog: Catalog): ReadableTable[] {
  return catalog.tables.slice(0, maximumSchemaTables).map((table) => ({
    name: table.schema === "public" ? table.name : `${table.schema}.${table.name}`,
    kind: table.kind,
    description: table.comment,
    primaryKey: table.primaryKey,
    columns: table.columns.map((column) => ({
      name: column.name,
      type: column.dataType,
      description: column.comment,
      values: (column.enumValues ?? column.sampleValues ?? []).slice(0, 5),
    })),
    foreignKeys: table.foreignKeys.map(
      (key) =>
        `(${key.columns.join(", ")}) → ${key.referencedSchema === "public" ? "" : `${key.referencedSchema}.`}${key.referencedTable} (${key.referencedColumns.join(", ")})`,
    ),
  }));
}

/**
 * The tables and columns the user's role may read, read on the role's own connection inside a read-only scope:
 * `introspectCatalog` lists only relations and columns the role holds `SELECT` on, and the few sample values are
 * selected as the role, so row-level security decides which values appear.
 */
export async function readableSchema(user: WebUser, statementTimeoutMilliseconds: number): Promise<ReadableTable[]> {
  const catalog = await withUserSession(user, (session) =>
    runReadOnly({ session: session.executor, transactionStatus: "idle", statementTimeoutMilliseconds }, async (run) =>
      fetchSampleValues(run, await introspectCatalog(run), { maxTables: maximumSchemaTables }),
    ),
  );
  return readableTables(catalog);
}
