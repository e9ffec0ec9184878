import type { Catalog, ColumnInfo, TableInfo } from "../catalog/catalog-types";
import type { QueryResult } from "../database/query-executor";
import type { FunctionPolicy } from "../sql/function-policy";
import { quoteIdentifier } from "../sql/quote-identifier";
import { mayReadValues, valueReadPolicy } from "../sql/value-read-policy";

export interface SampleValuesOptions {
  /** Distinct example values kept per column. Default 3. */
  readonly valuesPerColumn?: number;
  /** Rows read per table (one `SELECT … LIMIT n` each). Default 50. */
  readonly rowsPerTable?: number;
  /** Longest example kept, in characters (longer ones are cut with `…`). Default 40. */
  readonly maxValueLength?: number;
  /** Tables sampled at most (in catalog order). Default 100. */
  readonly maxTables?: number;
  /** `statement_timeout` of each sample query, in milliseconds (an expensive view is skipped). Default 2000. */
  readonly timeoutMilliseconds?: number;
  /**
   * The question's function policy, which decides which tables are safe to read (`mayReadValues`). Default: the
   * session's own, loaded through the cache without allowed functions or trusted owners (`valueReadPolicy`).
   */
  readonly policy?: FunctionPolicy;
}

const textType = /^(text|character varying|character|varchar|char|citext|name|USER-DEFINED)\b/;

/** True for columns worth showing examples of (text-like types: they tell the model how values are spelled). */
export function isTextColumn(column: ColumnInfo): boolean {
  return textType.test(column.dataType);
}

/**
 * True for ordinary and partitioned tables (`relkind` r, p): reading them reads stored rows. A view's body, a
 * foreign table's wrapper or a materialized view's owner code would run in the asking session, so those are never
 * sampled (issue 17: a view taking an advisory lock ran on every question).
 */
export function isStoredTable(table: TableInfo): boolean {
  return table.kind === "table" || table.kind === "partitioned-table";
}

/**
 * Adds a few example values to each text column of ordinary and partitioned tables (`isStoredTable`) whose reading
 * runs no code the function policy refuses (`mayReadValues`: a row-level security policy, or a column type's cast to
 * text, planted by another role would run in the asking session; such tables get no examples): one cheap
 * `SELECT <text columns> FROM <table> LIMIT n` per table,
 * each inside its own savepoint, all under one short `statement_timeout` set inside an outer savepoint, so a failing
 * or slow table (a broken or expensive view) is skipped without aborting the surrounding read-only transaction or
 * changing its timeout. Must run inside `runReadOnly`. Returns a new catalog.
 */
export async function fetchSampleValues(
  query: (sql: string) => Promise<QueryResult>,
  catalog: Catalog,
  options: SampleValuesOptions = {},
): Promise<Catalog> {
  const valuesPerColumn = options.valuesPerColumn ?? 3;
  const rowsPerTable = options.rowsPerTable ?? 50;
  const maxValueLength = options.maxValueLength ?? 40;
  const maxTables = options.maxTables ?? 100;
  const timeout = Math.max(1, Math.floor(options.timeoutMilliseconds ?? 2_000));
  const candidates = catalog.tables.map((table, position) => ({
    table,
    textColumns: position < maxTables && isStoredTable(table) ? table.columns.filter(isTextColumn) : [],
  }));
  const policy = candidates.some(({ textColumns }) => textColumns.length > 0)
    ? await valueReadPolicy(query, options.policy)
    : undefined;
  const sampled = candidates.map(({ table, textColumns }) => ({
    table,
    textColumns:
      policy !== undefined &&
      textColumns.length > 0 &&
      mayReadValues(policy, { schema: table.schema, table: table.name })
        ? textColumns
        : [],
  }));
  const rowsByTable = new Map<TableInfo, QueryResult["rows"]>();
  if (sampled.some(({ textColumns }) => textColumns.length > 0)) {
    // One outer savepoint carries the short timeout for every sample query; rolling it back restores the scope's.
    await query("SAVEPOINT nlq_samples");
    try {
      await query(`SET LOCAL statement_timeout = ${timeout}`);
      // Every table in one statement first (one round trip instead of three per table); table by table when it fails.
      const atOnce = await sampleRowsAtOnce(query, sampled, rowsPerTable);
      for (const { table, textColumns } of sampled) {
        if (textColumns.length === 0) continue;
        rowsByTable.set(table, atOnce?.get(table) ?? (await sampleRows(query, table, textColumns, rowsPerTable)));
      }
    } finally {
      // Nothing was written; this also reverts the sample timeout.
      await query("ROLLBACK TO SAVEPOINT nlq_samples");
      await query("RELEASE SAVEPOINT nlq_samples");
    }
  }
  const tables = sampled.map(({ table, textColumns }) => {
    const rows = rowsByTable.get(table);
    if (!rows) return table;
    const samples = new Map<string, string[]>();
    textColumns.forEach((column, index) => {
      const distinct: string[] = [];
      for (const row of rows) {
        const value = row[index];
        if (value === null || value === undefined || value.trim() === "") continue;
        const shown = value.length > maxValueLength ? `${value.slice(0, maxValueLength)}…` : value;
        if (!distinct.includes(shown)) distinct.push(shown);
        if (distinct.length >= valuesPerColumn) break;
      }
      samples.set(column.name, distinct);
    });
    return {
      ...table,
      columns: table.columns.map((column) =>
        samples.has(column.name) ? { ...column, sampleValues: samples.get(column.name)! } : column,
      ),
    };
  });
  return { tables };
}

/**
 * Every table's `SELECT <text columns> FROM <table> LIMIT n` as one statement (`UNION ALL` of one `json_agg` row per
 * table), in its own savepoint: the rows by table, or undefined when the statement fails (then each table is read on
 * its own, so a broken or slow table still only loses its own examples).
 */
async function sampleRowsAtOnce(
  query: (sql: string) => Promise<QueryResult>,
  sampled: ReadonlyArray<{ readonly table: TableInfo; readonly textColumns: readonly ColumnInfo[] }>,
  rowsPerTable: number,
): Promise<Map<TableInfo, QueryResult["rows"]> | undefined> {
  const wanted = sampled.filter(({ textColumns }) => textColumns.length > 0);
  if (wanted.length < 2) return undefined;
  const statement = wanted
    .map(({ table, textColumns }, index) => {
      const select = textColumns
        .map((column, position) => `${quoteIdentifier(column.name)}::pg_catalog.text AS "${position}"`)
        .join(", ");
      const from = `${quoteIdentifier(table.schema)}.${quoteIdentifier(table.name)}`;
      return `SELECT ${index} AS table_index, (SELECT pg_catalog.json_agg(pg_catalog.row_to_json(sample)) FROM (SELECT ${select} FROM ${from} LIMIT ${rowsPerTable}) AS sample)::pg_catalog.text AS sample_rows`;
    })
    .join(" UNION ALL ");
  await query("SAVEPOINT nlq_sample");
  try {
    const rowsByTable = new Map<TableInfo, QueryResult["rows"]>();
    for (const [index, json] of (await query(statement)).rows) {
      const entry = wanted[Number(index)];
      if (!entry) continue;
      const objects = json ? (JSON.parse(json) as Array<Record<string, string | null>>) : [];
      rowsByTable.set(
        entry.table,
        objects.map((object) => entry.textColumns.map((_, position) => object[String(position)] ?? null)),
      );
    }
    return rowsByTable;
  } catch {
    return undefined;
  } finally {
    await query("ROLLBACK TO SAVEPOINT nlq_sample");
    await query("RELEASE SAVEPOINT nlq_sample");
  }
}

/** `SELECT <text columns> FROM <table> LIMIT n` in its own savepoint: a broken or slow table gives no rows. */
async function sampleRows(
  query: (sql: string) => Promise<QueryResult>,
  table: TableInfo,
  textColumns: readonly ColumnInfo[],
  rowsPerTable: number,
): Promise<QueryResult["rows"]> {
  const select = textColumns.map((column) => `${quoteIdentifier(column.name)}::text`).join(", ");
  const from = `${quoteIdentifier(table.schema)}.${quoteIdentifier(table.name)}`;
  await query("SAVEPOINT nlq_sample");
  let rows: QueryResult["rows"] = [];
  try {
    rows = (await query(`SELECT ${select} FROM ${from} LIMIT ${rowsPerTable}`)).rows;
  } catch {
    // a broken or slow table: no examples
    await query("ROLLBACK TO SAVEPOINT nlq_sample");
  }
  await query("RELEASE SAVEPOINT nlq_sample");
  return rows;
}
