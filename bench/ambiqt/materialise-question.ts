import path from "node:path";
import { createPgExecutor } from "@nlq/adapters";
import { alwaysQuoteIdentifier, type ComparableResult, compareResults, loadSqlParser, seededRandom } from "@nlq/engine";
import { createEvaluationExecutor, spiderResultsEqual, translateMysqlGold } from "@nlq/eval";
import pg from "pg";
import { loadSpiderDatabase } from "../spider-warehouse/load-spider-database";
import type { AmbiqtRow } from "./ambiqt-row";
import { AmbiqtMaterialiseError } from "./materialise-error";
import { applyStoredAggregate } from "./stored-aggregate";
import { applyColumnSynonyms, applySplitTable, applyTableSynonyms, type ChangeContext } from "./synonym-changes";

/** One AmbiQT example made real: a line of the questions file `nlq eval --questions` reads. */
export interface MaterialisedQuestion {
  readonly id: string;
  readonly question: string;
  /** Both readings in PostgreSQL: AmbiQT's query1 and query2, translated. */
  readonly gold: readonly [string, string];
  readonly schema: string;
  readonly database: string;
  /** The AmbiQT type: C, T, J or P. */
  readonly category: string;
  /** Where it came from and what was built (never shown to the engine: only `question` is). */
  readonly ambiqt: {
    readonly line: number;
    readonly spiderDatabase: string;
    readonly query1: string;
    readonly query2: string;
    readonly change: string;
    readonly attempts: number;
    /** Rows each reading returns. */
    readonly rows: readonly [number, number];
  };
}

export type MaterialiseOutcome =
  | { readonly ok: true; readonly question: MaterialisedQuestion }
  | { readonly ok: false; readonly line: number; readonly type: string; readonly reason: string };

export interface MaterialiseOptions {
  readonly row: AmbiqtRow;
  /** A URL of the server as a superuser (its database is only used to create and drop the question's). */
  readonly serverUrl: string;
  /** The database to create for the question (dropped first if it exists). */
  readonly database: string;
  /** The spider-warehouse data folder (holding `databases/`). */
  readonly spiderDirectory: string;
  readonly seed: number;
  /** Shares of rows that drift in successive attempts, until the readings return different rows. */
  readonly shares?: readonly number[];
}

/** The attempts' shares of drifted rows: a little first, more only when the readings still agree. */
export const defaultDriftShares = [0.1, 0.2, 0.35, 0.5, 0.75] as const;

/** Runs a reading inside the attempt's transaction (in a savepoint), as text values with their type OIDs. */
async function runReading(client: pg.ClientBase, sql: string): Promise<ComparableResult | string> {
  await client.query("SAVEPOINT ambiqt_reading");
  try {
    const result = await client.query({
      text: sql,
      rowMode: "array",
      types: { getTypeParser: () => (value: string) => value },
    });
    await client.query("RELEASE SAVEPOINT ambiqt_reading");
    return { columnTypes: result.fields.map((field) => field.dataTypeID), rows: result.rows as (string | null)[][] };
  } catch (error) {
    await client.query("ROLLBACK TO SAVEPOINT ambiqt_reading");
    return (error as Error).message;
  }
}

/** Two results no rule would call the same: neither nlq's (as row multisets) nor Spider's (columns permuted). */
export function readingsDiffer(first: ComparableResult, second: ComparableResult): boolean {
  return !compareResults(first, second).equal && !spiderResultsEqual(first, second, false);
}

function urlOf(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function createDatabase(serverUrl: string, database: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${alwaysQuoteIdentifier(database)} WITH (FORCE)`);
    // CREATE DATABASE fails with 55006 while another session uses template1: retry a little.
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE ${alwaysQuoteIdentifier(database)}`);
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== "55006" || attempt >= 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
      }
    }
  } finally {
    await admin.end();
  }
}

/** Drops a question's database (the example was not kept). */
export async function dropDatabase(serverUrl: string, database: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${alwaysQuoteIdentifier(database)} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

async function applyChange(context: ChangeContext, row: AmbiqtRow): Promise<string> {
  switch (row.change.type) {
    case "C":
      return applyColumnSynonyms(context, row.change);
    case "T":
      return applyTableSynonyms(context, row.change);
    case "J":
      return applySplitTable(context, row.change);
    case "P":
      return applyStoredAggregate(context, row.change, row.query1);
  }
}

/**
 * Makes one AmbiQT example real in its own database: the Spider database loaded (`loadSpiderDatabase`, schema named
 * after it), the schema change applied with drifted values (`applyChange`), in a transaction per attempt that is kept
 * only when both readings run and return different rows (`readingsDiffer`), with more drift each attempt. Then both
 * readings are run again as `nlq eval` runs gold (`createEvaluationExecutor`: validated, read-only) and must still
 * differ. Anything else drops the database and reports why.
 */
export async function materialiseQuestion(options: MaterialiseOptions): Promise<MaterialiseOutcome> {
  const { row, database } = options;
  const dropped = (reason: string): MaterialiseOutcome => ({
    ok: false,
    line: row.line,
    type: row.change.type,
    reason,
  });
  const golds = [translateMysqlGold(row.query1), translateMysqlGold(row.query2)] as const;
  for (const gold of golds) if (!gold.ok) return dropped(`a reading does not translate to PostgreSQL: ${gold.error}`);
  const pgGolds = [(golds[0] as { sql: string }).sql, (golds[1] as { sql: string }).sql] as const;
  await loadSqlParser();
  await createDatabase(options.serverUrl, database);
  const client = new pg.Client({ connectionString: urlOf(options.serverUrl, database) });
  await client.connect();
  let kept: { change: string; attempts: number } | undefined;
  let reason = "";
  try {
    const loaded = await loadSpiderDatabase({
      client,
      databaseDirectory: path.join(options.spiderDirectory, "databases", row.database),
    });
    const schema = loaded.schema;
    await client.query(`SET search_path TO ${alwaysQuoteIdentifier(schema)}`);
    const shares = options.shares ?? defaultDriftShares;
    for (const [attempt, share] of shares.entries()) {
      const random = seededRandom((options.seed * 1_000_003 + row.line * 97 + attempt) >>> 0);
      await client.query("BEGIN");
      try {
        const change = await applyChange({ client, schema, golds: pgGolds, share, random }, row);
        const [first, second] = [await runReading(client, pgGolds[0]), await runReading(client, pgGolds[1])];
        if (typeof first === "string" || typeof second === "string") {
          reason = `a reading does not run: ${typeof first === "string" ? first : second}`;
          await client.query("ROLLBACK");
          break;
        }
        if (readingsDiffer(first, second)) {
          await client.query("COMMIT");
          kept = { change, attempts: attempt + 1 };
          break;
        }
        await client.query("ROLLBACK");
        reason = `both readings return the same rows after ${attempt + 1} attempts (up to ${Math.round(share * 100)} % of rows drifted)`;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        // What PostgreSQL refused (it has a SQLSTATE) drops this example; anything else is a bug of the loader.
        const refused = typeof (error as { code?: unknown }).code === "string";
        if (!AmbiqtMaterialiseError.isInstance(error) && !refused) throw error;
        reason = AmbiqtMaterialiseError.isInstance(error)
          ? error.message
          : `PostgreSQL refused the change: ${(error as Error).message}`;
        break;
      }
    }
    if (kept === undefined) return dropped(reason);
    await client.query("ANALYZE");
    await client.query("RESET search_path");
    // The check nlq eval's own gold path makes: both readings run (validated, read-only) and differ.
    const execute = createEvaluationExecutor({ session: createPgExecutor(client) });
    const [first, second] = [await execute(pgGolds[0], schema), await execute(pgGolds[1], schema)];
    if (!first.ok || !second.ok) {
      kept = undefined;
      return dropped(
        `a reading does not run as nlq eval runs it: ${first.ok ? (second as { error: string }).error : first.error}`,
      );
    }
    if (!readingsDiffer(first.result, second.result)) {
      kept = undefined;
      return dropped("both readings return the same rows as nlq eval runs them");
    }
    return {
      ok: true,
      question: {
        id: `ambiqt-${row.line}`,
        question: row.question,
        gold: pgGolds,
        schema,
        database,
        category: row.change.type,
        ambiqt: {
          line: row.line,
          spiderDatabase: row.database,
          query1: row.query1,
          query2: row.query2,
          change: kept.change,
          attempts: kept.attempts,
          rows: [first.result.rows.length, second.result.rows.length],
        },
      },
    };
  } finally {
    await client.end().catch(() => undefined);
    if (kept === undefined) await dropDatabase(options.serverUrl, database);
  }
}
