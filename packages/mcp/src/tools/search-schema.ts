import { type Catalog, fetchSampleValues, introspectCatalog, runReadOnly, type TableInfo } from "@nlq/engine";
import type { RoleSession } from "../role-session";

/** Most tables one `search_schema` result lists. */
export const MAX_SCHEMA_TABLES = 20;
/** Most columns listed per table. */
export const MAX_TABLE_COLUMNS = 40;

/** One table in a `search_schema` result, with the columns the role may read. */
export interface SchemaMatch {
  readonly table: string;
  readonly kind: TableInfo["kind"];
  readonly description: string | null;
  readonly columns: ReadonlyArray<{
    readonly name: string;
    readonly type: string;
    readonly description: string | null;
    /** A few values of a text column (stored tables only, read under the role: row-level security applies). */
    readonly values?: readonly string[];
    /** Labels of an enum column. */
    readonly labels?: readonly string[];
  }>;
  /** Columns of the table left out by the per-table cap. */
  readonly moreColumns?: number;
  readonly primaryKey?: readonly string[];
  readonly foreignKeys?: readonly string[];
}

export interface SchemaSearch {
  readonly query: string;
  readonly tables: readonly SchemaMatch[];
  /** Matching tables left out by the cap (`MAX_SCHEMA_TABLES`). */
  readonly moreTables: number;
}

/** The words of a search, lower case (letters, digits, `_`); `*` or no word matches everything. */
export function searchTerms(query: string): string[] {
  return (query.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []).filter((term) => term.length > 0);
}

/** How well a table matches: terms found in its name (3), a column's name (2), its or a column's description (1). */
export function tableScore(table: TableInfo, terms: readonly string[]): number {
  if (terms.length === 0) return 1;
  let score = 0;
  const name = `${table.schema}.${table.name}`.toLowerCase();
  for (const term of terms) {
    if (name.includes(term)) score += 3;
    if (table.columns.some((column) => column.name.toLowerCase().includes(term))) score += 2;
    const described = [table.comment, ...table.columns.map((column) => column.comment)];
    if (described.some((text) => text?.toLowerCase().includes(term))) score += 1;
  }
  return score;
}

/**
 * The tables and columns the role may read that match `query`, best first: the catalog is introspected on the role's
 * own session (`introspectCatalog`: only relations and columns the role holds `SELECT` on), so an ungranted table or
 * column never appears; a few values of the matching tables' text columns are read under the role as well
 * (`fetchSampleValues`: stored tables only, so row-level security filters them). Capped at `MAX_SCHEMA_TABLES`
 * tables and `MAX_TABLE_COLUMNS` columns each.
 */
export async function searchSchema(
  role: RoleSession,
  query: string,
  statementTimeoutMilliseconds: number,
  abortSignal?: AbortSignal,
): Promise<SchemaSearch> {
  const terms = searchTerms(query);
  return role.exclusive(() =>
    runReadOnly(
      { session: role.session, transactionStatus: "idle", statementTimeoutMilliseconds, abortSignal },
      async (run) => {
        const catalog = await introspectCatalog(run);
        const ranked = catalog.tables
          .map((table) => ({ table, score: tableScore(table, terms) }))
          .filter(({ score }) => score > 0)
          .sort((left, right) => right.score - left.score);
        const shown: Catalog = {
          tables: ranked.slice(0, MAX_SCHEMA_TABLES).map(({ table }) => ({
            ...table,
            columns: table.columns.slice(0, MAX_TABLE_COLUMNS),
          })),
        };
        const sampled = await fetchSampleValues(run, shown);
        return {
          query,
          tables: sampled.tables.map((table, position) => describeTable(table, ranked[position]?.table ?? table)),
          moreTables: Math.max(0, ranked.length - MAX_SCHEMA_TABLES),
        };
      },
    ),
  );
}

function describeTable(table: TableInfo, whole: TableInfo): SchemaMatch {
  const more = whole.columns.length - table.columns.length;
  return {
    table: `${table.schema}.${table.name}`,
    kind: table.kind,
    description: table.comment,
    columns: table.columns.map((column) => ({
      name: column.name,
      type: column.dataType,
      description: column.comment,
      ...(column.sampleValues && column.sampleValues.length > 0 ? { values: column.sampleValues } : {}),
      ...(column.enumValues ? { labels: column.enumValues.slice(0, 20) } : {}),
    })),
    ...(more > 0 ? { moreColumns: more } : {}),
    ...(table.primaryKey.length > 0 ? { primaryKey: table.primaryKey } : {}),
    ...(table.foreignKeys.length > 0
      ? {
          foreignKeys: table.foreignKeys.map(
            (key) =>
              `(${key.columns.join(", ")}) → ${key.referencedSchema}.${key.referencedTable} (${key.referencedColumns.join(", ")})`,
          ),
        }
      : {}),
  };
}
