import type { FunctionPolicy, ReadOnlyQuery } from "@nlq/engine";
import { mayReadValues, quoteIdentifier, valueReadPolicy } from "@nlq/engine";

/** Statistics of one column from `pg_stats` (only when the table was analyzed). */
export interface ColumnStatistics {
  /** Distinct values: `n_distinct` as a count (a negative `n_distinct` is a fraction of the rows). */
  readonly distinctCount: number | null;
  readonly nullFraction: number | null;
}

export interface TableStatistics {
  /** `pg_class.reltuples`; null when never analyzed (-1) or not a stored relation. */
  readonly rowEstimate: number | null;
  readonly columns: ReadonlyMap<string, ColumnStatistics>;
}

function numberOrNull(text: string | null | undefined): number | null {
  if (text === null || text === undefined || text === "") return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

/** Row estimates and column statistics of every visible table, in two statements. Keyed by `schema.table`. */
export async function fetchTableStatistics(query: ReadOnlyQuery): Promise<Map<string, TableStatistics>> {
  const statistics = new Map<string, { rowEstimate: number | null; columns: Map<string, ColumnStatistics> }>();
  const tables = await query(
    `SELECT n.nspname, c.relname, c.reltuples::float8::text, c.relkind::text FROM pg_catalog.pg_class c
     JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relkind IN ('r', 'v', 'm', 'f', 'p') AND n.nspname NOT IN ('pg_catalog', 'information_schema')`,
  );
  for (const [schema, table, reltuples, kind] of tables.rows) {
    const estimate = numberOrNull(reltuples);
    statistics.set(`${schema}.${table}`, {
      rowEstimate: kind === "v" || estimate === null || estimate < 0 ? null : estimate,
      columns: new Map(),
    });
  }
  const columns = await query(
    `SELECT schemaname::text, tablename::text, attname::text, null_frac::text, n_distinct::text FROM pg_catalog.pg_stats
     WHERE schemaname NOT IN ('pg_catalog', 'information_schema')`,
  );
  for (const [schema, table, column, nullFraction, distinct] of columns.rows) {
    const entry = statistics.get(`${schema}.${table}`);
    if (!entry || !column) continue;
    const nDistinct = numberOrNull(distinct);
    const distinctCount =
      nDistinct === null
        ? null
        : nDistinct >= 0
          ? nDistinct
          : entry.rowEstimate === null
            ? null
            : Math.round(-nDistinct * entry.rowEstimate);
    entry.columns.set(column, { distinctCount, nullFraction: numberOrNull(nullFraction) });
  }
  return statistics;
}

/**
 * Exact `count(*)` of a table, inside its own savepoint with a short `statement_timeout` (must run inside
 * `runReadOnly`); null when it fails or times out, or when reading the table runs code the function policy refuses
 * (`mayReadValues` with `policy`, default the session's: a row-level security policy another role planted).
 */
export async function countRowsExactly(
  query: ReadOnlyQuery,
  table: { readonly schema: string; readonly name: string },
  timeoutMilliseconds = 2_000,
  policy?: FunctionPolicy,
): Promise<number | null> {
  if (!mayReadValues(await valueReadPolicy(query, policy), { schema: table.schema, table: table.name })) return null;
  await query("SAVEPOINT nlq_count");
  try {
    await query(`SET LOCAL statement_timeout = ${Math.max(1, Math.floor(timeoutMilliseconds))}`);
    const result = await query(
      `SELECT count(*)::text FROM ${quoteIdentifier(table.schema)}.${quoteIdentifier(table.name)}`,
    );
    return numberOrNull(result.rows[0]?.[0]);
  } catch {
    return null;
  } finally {
    await query("ROLLBACK TO SAVEPOINT nlq_count");
    await query("RELEASE SAVEPOINT nlq_count");
  }
}
