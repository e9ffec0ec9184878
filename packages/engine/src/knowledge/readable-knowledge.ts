import { type Catalog, tableKey } from "../catalog/catalog-types";
import type { KnowledgeEntry } from "../contract/knowledge";
import { knowledgeSqlNames } from "./knowledge-sql-names";

/**
 * The qualified names (`schema.table` and `schema.table.column`, unquoted) of everything in `catalog`: what a
 * knowledge entry's `references` are checked against.
 */
export function readableElementNames(catalog: Catalog): Set<string> {
  const names = new Set<string>();
  for (const table of catalog.tables) {
    const key = tableKey(table);
    names.add(key);
    for (const column of table.columns) names.add(`${key}.${column.name}`);
  }
  return names;
}

/** What of an entry names schema elements (a stored row's `reading` and `sql` may be null). */
export interface KnowledgeReferences {
  readonly references: KnowledgeEntry["references"];
  readonly reading?: KnowledgeEntry["reading"] | null;
  readonly sql?: string | null;
}

/**
 * The entries whose every reference names a table or column of `catalog` — which holds only what the asking role may
 * read (introspected on its session, or the index restricted to it) — in their order. An entry naming nothing (a pure
 * glossary term) is kept; one naming anything the role cannot read, or that no longer exists, is dropped whole
 * (docs/decisions/2026-12-01-readings-knowledge-and-teaching.md, rule 1). A `reading` entry's chosen and alternative
 * elements count as references too, and so does what an entry's SQL names (`sqlReadable`): a metric written by hand
 * without its `references` still reaches only the roles that may read what it computes from. Entries with SQL need
 * `loadSqlParser()` to have settled (`SqlParserNotLoadedError` otherwise).
 */
export function readableKnowledge<Entry extends KnowledgeReferences>(
  entries: readonly Entry[],
  catalog: Catalog | ReadonlySet<string>,
): Entry[] {
  const readable = catalog instanceof Set ? catalog : readableElementNames(catalog as Catalog);
  let elements: ReadableElements | undefined;
  return entries.filter((entry) => {
    if (!knowledgeReferences(entry).every((name) => readable.has(name))) return false;
    if (!entry.sql) return true;
    elements ??= readableElements(readable);
    return sqlReadable(entry.sql, entry.references, elements);
  });
}

/** Every schema element an entry names: its `references`, and a reading's chosen and alternative elements. */
export function knowledgeReferences(entry: KnowledgeReferences): string[] {
  const reading = entry.reading
    ? [...entry.reading.chosen.elements, ...entry.reading.alternatives.flatMap((choice) => choice.elements)]
    : [];
  return [...new Set([...entry.references, ...reading])];
}

/** The readable names arranged for resolving SQL: each table's columns, and the tables of each unqualified name. */
interface ReadableElements {
  readonly columnsByTable: ReadonlyMap<string, ReadonlySet<string>>;
  readonly tablesByName: ReadonlyMap<string, readonly string[]>;
}

function readableElements(readable: ReadonlySet<string>): ReadableElements {
  const columnsByTable = new Map<string, Set<string>>();
  const tablesByName = new Map<string, string[]>();
  const columnsOf = (table: string) => {
    const columns = columnsByTable.get(table) ?? new Set<string>();
    columnsByTable.set(table, columns);
    return columns;
  };
  // `schema.table` and `schema.table.column`; a name with a dot inside a part cannot be told apart and is left out,
  // so SQL naming it is not readable (the check fails closed).
  for (const name of readable) {
    const [schema, table, column, ...rest] = name.split(".");
    if (table === undefined || rest.length > 0) continue;
    if (column === undefined) {
      columnsOf(name);
      tablesByName.set(table, [...(tablesByName.get(table) ?? []), name]);
    } else columnsOf(`${schema}.${table}`).add(column);
  }
  return { columnsByTable, tablesByName };
}

/**
 * True when every table an entry's SQL reads is readable (a schema-qualified one exactly, an unqualified one by name in
 * any readable schema), and every column it names is a readable table's: the one its schema qualifies, else one of the
 * tables the SQL reads or the entry references, else any readable table. SQL the parser rejects is not readable: what
 * cannot be checked is not shown.
 */
function sqlReadable(sql: string, references: readonly string[], elements: ReadableElements): boolean {
  const names = knowledgeSqlNames(sql);
  if (!names) return false;
  const scope = new Set<string>();
  for (const table of names.tables) {
    const qualified = `${table.schema}.${table.name}`;
    const keys = table.schema
      ? [qualified].filter((key) => elements.columnsByTable.has(key))
      : (elements.tablesByName.get(table.name) ?? []);
    if (keys.length === 0) return false;
    for (const key of keys) scope.add(key);
  }
  for (const reference of references) {
    const table = reference.split(".").slice(0, 2).join(".");
    if (elements.columnsByTable.has(table)) scope.add(table);
  }
  const candidates = scope.size > 0 ? [...scope] : [...elements.columnsByTable.keys()];
  return names.columns.every((column) =>
    column.table
      ? (elements.columnsByTable.get(`${column.table.schema}.${column.table.name}`)?.has(column.name) ?? false)
      : candidates.some((table) => elements.columnsByTable.get(table)!.has(column.name)),
  );
}
