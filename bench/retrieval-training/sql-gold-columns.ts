import { type SchemaColumn, schemaColumnKey } from "@nlq/engine";

const identifier = String.raw`(?:\`[^\`]+\`|[A-Za-z_][A-Za-z0-9_]*)`;
const unquote = (name: string) => name.replace(/^`|`$/g, "").toLowerCase();

/**
 * Gold columns of one gold query, as `db.table.column` keys of `columns` (one database's columns, lower case as in the
 * CRUSH4SQL corpora). Tolerant, no parser (Spider's SQL is MySQL with backticks, aliases, INTERSECT): gold tables are
 * identifiers naming a table of the database; `alias.column` resolves through `table AS alias` (or `table alias`) to
 * that table; a bare column name (not followed by `(`) counts for every gold table that has it. `COUNT(*)` adds nothing.
 */
export function goldColumnKeys(columns: readonly SchemaColumn[], sql: string): string[] {
  const tableNames = new Set(columns.map((column) => column.table));
  let text = sql.replace(/'(?:[^'\\]|\\.|'')*'|"(?:[^"\\]|\\.)*"/g, " ");
  const aliases = new Map<string, string>();
  for (const match of text.matchAll(new RegExp(`(${identifier})\\s+(?=(?:as\\s+)?(${identifier}))`, "gi"))) {
    const table = unquote(match[1]!);
    if (tableNames.has(table)) aliases.set(unquote(match[2]!), table);
  }
  const qualified: { table: string; column: string }[] = [];
  text = text.replace(
    new RegExp(`(${identifier})\\s*\\.\\s*(${identifier})`, "g"),
    (_, owner: string, name: string) => {
      const table = aliases.get(unquote(owner)) ?? unquote(owner);
      qualified.push({ table, column: unquote(name) });
      return " ";
    },
  );
  const bare: string[] = [];
  const mentionedTables = new Set(
    qualified.map((reference) => reference.table).filter((table) => tableNames.has(table)),
  );
  for (const match of text.matchAll(new RegExp(`(${identifier})(\\s*\\()?`, "g"))) {
    const name = unquote(match[1]!);
    if (tableNames.has(name)) mentionedTables.add(name);
    if (match[2] === undefined) bare.push(name);
  }
  const wanted = new Set(qualified.map((reference) => `${reference.table}.${reference.column}`));
  for (const table of mentionedTables) for (const name of bare) wanted.add(`${table}.${name}`);
  return columns
    .filter((column) => wanted.has(`${column.table}.${column.column}`))
    .map((column) => schemaColumnKey(column));
}
