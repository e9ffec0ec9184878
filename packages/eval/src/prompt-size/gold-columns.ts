import type { Catalog } from "@nlq/engine";

/** Gold tables and columns of one question, in catalog spelling. */
export interface GoldSchema {
  /** `schema.table` keys. */
  readonly tables: readonly string[];
  /** `schema.table` → column names. */
  readonly columns: ReadonlyMap<string, readonly string[]>;
}

/** Identifiers of a MySQL-dialect query: backtick-quoted names and bare words, string literals removed. */
export function sqlIdentifiers(sql: string): string[] {
  const withoutStrings = sql.replace(/'(?:[^'\\]|\\.|'')*'|"(?:[^"\\]|\\.)*"/g, " ");
  const identifiers: string[] = [];
  for (const match of withoutStrings.matchAll(/`([^`]+)`|([A-Za-z_][A-Za-z0-9_]*)/g))
    identifiers.push(match[1] ?? match[2]!);
  return identifiers;
}

/**
 * Tolerant gold extraction (no parser: Spider's gold SQL is MySQL with backticks, aliases `T1`, INTERSECT/UNION):
 * gold tables are the identifiers naming a table of the question's schema (Spider database = warehouse schema, names
 * compared case-insensitively); gold columns are identifiers naming a column of a gold table (a column name shared by
 * two gold tables, typically a join key, counts for both). `*` alone (COUNT(*)) adds no column.
 */
export function extractGoldSchema(catalog: Catalog, schema: string, sql: string): GoldSchema {
  const tables = catalog.tables.filter((table) => table.schema === schema.toLowerCase() || table.schema === schema);
  const byName = new Map(tables.map((table) => [table.name.toLowerCase(), table]));
  const identifiers = sqlIdentifiers(sql).map((identifier) => identifier.toLowerCase());
  const goldTables = [...new Set(identifiers.filter((identifier) => byName.has(identifier)))].map(
    (name) => byName.get(name)!,
  );
  const mentioned = new Set(identifiers);
  const columns = new Map<string, string[]>();
  for (const table of goldTables) {
    const chosen = table.columns
      .filter((column) => mentioned.has(column.name.toLowerCase()))
      .map((column) => column.name);
    columns.set(`${table.schema}.${table.name}`, chosen);
  }
  return { tables: goldTables.map((table) => `${table.schema}.${table.name}`), columns };
}

/** The gold schema as a CRUSH hallucination (`Table(col, col)`), the scripted stand-in for the model's guess. */
export function goldAsHallucination(gold: GoldSchema): string[] {
  return gold.tables.map((table) => `${table.split(".").at(-1)}(${(gold.columns.get(table) ?? []).join(", ")})`);
}
