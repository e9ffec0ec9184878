import type { Catalog, TableInfo } from "../../catalog/catalog-types";
import { alwaysQuoteIdentifier } from "../../sql/quote-identifier";
import { normalizeValue } from "./normalize-value";
import type { ValueColumn } from "./value-column";
import { columnSkipReason } from "./value-selection";
import { escapedStringLiteral as literal } from "./value-visibility-statement";

/** Most character 3-grams of one keyword used as `LIKE` patterns (evenly spread over a long keyword). */
const MAX_GRAMS_PER_KEYWORD = 12;
/** Keywords longer than this are sentences, not values: not looked up. */
const MAX_KEYWORD_LENGTH = 100;

/** One table's live value lookup: the columns probed and the statement returning `(column position, value)` rows. */
export interface LiveValueStatement {
  /** `schema.table` (unquoted). */
  readonly table: string;
  readonly columns: readonly ValueColumn[];
  readonly sql: string;
}

/**
 * The lowercase 3-grams of each keyword worth looking up (keywords shorter than 3 characters or longer than 100 have
 * none), at most 12 per keyword. A misspelt keyword still shares most of its 3-grams with the stored spelling
 * ("missisauga" and "mississauga" share 8 of 8), which is what lets a live lookup find it without `pg_trgm`.
 */
export function keywordGrams(keywords: readonly string[]): string[][] {
  return keywords.map((keyword) => {
    const normalized = normalizeValue(keyword);
    if (normalized.length < 3 || normalized.length > MAX_KEYWORD_LENGTH) return [];
    const grams = new Set<string>();
    for (let position = 0; position + 3 <= normalized.length; position++) {
      const gram = normalized.slice(position, position + 3);
      if (gram.trim().length === 3) grams.add(gram);
    }
    const all = [...grams];
    if (all.length <= MAX_GRAMS_PER_KEYWORD) return all;
    const step = all.length / MAX_GRAMS_PER_KEYWORD;
    return Array.from({ length: MAX_GRAMS_PER_KEYWORD }, (_, index) => all[Math.floor(index * step)]!);
  });
}

/** A `LIKE` pattern matching `text` anywhere, with `\`, `%` and `_` escaped (default escape character `\`). */
function containsPattern(text: string): string {
  return `%${text.replaceAll("\\", "\\\\").replaceAll("%", "\\%").replaceAll("_", "\\_")}%`;
}

/**
 * The columns a live lookup may read: text-like, non-key, non-enum columns (enum labels are in the prompt already) of
 * ordinary and partitioned tables only — never views, materialised views or foreign tables, whose bodies or wrappers
 * would run in the asking session.
 */
export function liveLookupColumns(table: TableInfo): ValueColumn[] {
  if (table.kind !== "table" && table.kind !== "partitioned-table") return [];
  const foreignKeyColumns = new Set(table.foreignKeys.flatMap((key) => key.columns));
  return table.columns
    .filter(
      (column) =>
        column.enumValues === undefined &&
        columnSkipReason({
          name: column.name,
          dataType: column.dataType,
          isPrimaryKey: table.primaryKey.includes(column.name),
          isForeignKey: foreignKeyColumns.has(column.name),
        }) === undefined,
    )
    .map((column) => ({ schema: table.schema, table: table.name, column: column.name }));
}

/**
 * One statement per table holding lookup columns: for each column,
 * `(SELECT position, value FROM (SELECT DISTINCT col::text AS value, lower(col::text) AS folded FROM t
 *   WHERE lower(col::text) LIKE ANY (grams)) AS found ORDER BY score DESC, length(value) LIMIT limit)` joined with
 * UNION ALL, where a value's score is, for its best keyword, the share of that keyword's 3-grams its lower-case form
 * contains (`LIKE` on a value folded once is several times faster than `ILIKE` per pattern: 0.1 s, not 0.8 s, for
 * 60,000 distinct values and two keywords). Every operator, function and type is schema-qualified
 * and every literal is `E''`: the statement runs on the asking session, whose search path and settings the asking role
 * controls. Returns no statement when no keyword has a 3-gram. Pure.
 */
export function liveValueStatements(
  catalog: Catalog,
  keywords: readonly string[],
  options: { readonly limitPerColumn: number; readonly maxTables?: number },
): LiveValueStatement[] {
  const grams = keywordGrams(keywords).filter((list) => list.length > 0);
  if (grams.length === 0) return [];
  const allPatterns = [...new Set(grams.flat())].map((gram) => literal(containsPattern(gram)));
  const scores = grams.map((list) => {
    const weight = Math.max(1, Math.round(1000 / list.length));
    return list
      .map(
        (gram) =>
          `(CASE WHEN found.folded OPERATOR(pg_catalog.~~) ${literal(containsPattern(gram))} THEN ${weight} ELSE 0 END)`,
      )
      .join(" OPERATOR(pg_catalog.+) ");
  });
  const score = scores.length === 1 ? scores[0]! : `GREATEST(${scores.join(", ")})`;
  const limit = Math.max(1, Math.floor(options.limitPerColumn));
  const statements: LiveValueStatement[] = [];
  for (const table of catalog.tables) {
    const columns = liveLookupColumns(table);
    if (columns.length === 0) continue;
    const from = `${alwaysQuoteIdentifier(table.schema)}.${alwaysQuoteIdentifier(table.name)}`;
    const branches = columns.map((column, position) => {
      const text = `${alwaysQuoteIdentifier(column.column)}::pg_catalog.text`;
      const folded = `pg_catalog.lower(${text})`;
      return (
        `(SELECT ${position} AS position, found.value FROM (SELECT DISTINCT ${text} AS value, ${folded} AS folded ` +
        `FROM ${from} WHERE ${folded} OPERATOR(pg_catalog.~~) ANY (ARRAY[${allPatterns.join(", ")}]::pg_catalog.text[])) ` +
        `AS found ORDER BY ${score} DESC, pg_catalog.length(found.value) LIMIT ${limit})`
      );
    });
    statements.push({ table: `${table.schema}.${table.name}`, columns, sql: branches.join(" UNION ALL ") });
    if (options.maxTables !== undefined && statements.length >= options.maxTables) break;
  }
  return statements;
}
