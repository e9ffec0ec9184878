import { type TableInfo, tableKey } from "../catalog/catalog-types";
import { type Ambiguity, type ReadingOption, type ReadingSearch, tableLabel } from "./ambiguity";
import { containsPhrase, identifierWords } from "./schema-words";

/** Most tables offered for one phrase (a warehouse may hold a dozen `country` tables). */
const maxTableOptions = 3;

/** Tables that may stand in for one another: ordinary tables and foreign tables (views are someone's choice of rows). */
function isPlainTable(table: TableInfo): boolean {
  return table.kind === "table" || table.kind === "foreign-table";
}

function columnSignature(table: TableInfo): string {
  return table.columns
    .map((column) => column.name.toLowerCase())
    .sort()
    .join(",");
}

function option(table: TableInfo): ReadingOption {
  const label = tableLabel(table.schema, table.name);
  return { label, elements: [tableKey(table)], tables: [tableKey(table)] };
}

/** The group's tables, those of the selected schema first, at most `maxTableOptions`. */
function orderedOptions(group: readonly TableInfo[], selectedKeys: ReadonlySet<string>): ReadingOption[] {
  const selectedFirst = [...group].sort(
    (left, right) => Number(!selectedKeys.has(tableKey(left))) - Number(!selectedKeys.has(tableKey(right))),
  );
  return selectedFirst.slice(0, maxTableOptions).map(option);
}

/** `schema.name` of a table's name words in a schema, to look counterparts up by. */
function nameInSchema(schema: string, table: string): string {
  return `${schema}\u0000${identifierWords(table).join(" ")}`;
}

/**
 * The copies that could stand in for the selected one in this question: a copy in another schema only when that
 * schema also holds a table of the name of every other selected table of the selected copy's schema. A question about
 * `driving_school.customers` and `driving_school.lessons` is not about `chinook_1.customer`, which has no lessons
 * beside it (LLM agents answering the relay could only return empty SQL for such readings); "How many users are
 * there?" with only `users` selected keeps every schema's `users`.
 */
function standIns(group: readonly TableInfo[], search: ReadingSearch): TableInfo[] {
  const groupKeys = new Set(group.map(tableKey));
  const selectedKeys = new Set(search.selected.tables.map(tableKey));
  const anchor = group.find((table) => selectedKeys.has(tableKey(table)));
  if (anchor === undefined) return [];
  const companions = search.selected.tables.filter(
    (table) => table.schema === anchor.schema && !groupKeys.has(tableKey(table)),
  );
  if (companions.length === 0) return [...group];
  const names = new Set(search.catalog.tables.map((table) => nameInSchema(table.schema, table.name)));
  return group.filter(
    (table) =>
      table.schema === anchor.schema ||
      companions.every((companion) => names.has(nameInSchema(table.schema, companion.name))),
  );
}

/**
 * Tables that fit one phrase equally (AmbiQT's table synonyms; a warehouse's copies):
 * - tables with exactly the same columns (names, any order; at least three), one of them in the selected schema, none
 *   of them named by the question (`artist` and `performer` for "singers"): the phrase is their names;
 * - tables of one name (singular) in several schemas whose name the question says ("countries" with `geo.country`,
 *   `sales.country`, `world.country`), one of them selected.
 * Views, partitions of a partitioned table and tables the selected schema does not touch raise nothing, nor copies
 * whose schema lacks the other tables the question reads beside the selected copy (`standIns`).
 */
export function findTableReadings(search: ReadingSearch): Ambiguity[] {
  const selectedKeys = new Set(search.selected.tables.map(tableKey));
  const partitionedPrefixes = search.catalog.tables
    .filter((table) => table.kind === "partitioned-table")
    .map((table) => `${table.schema}.${table.name}_`.toLowerCase());
  const tables = search.catalog.tables.filter(
    (table) =>
      isPlainTable(table) && !partitionedPrefixes.some((prefix) => tableKey(table).toLowerCase().startsWith(prefix)),
  );
  const found: Ambiguity[] = [];
  const seen = new Set<string>();
  const raise = (copies: readonly TableInfo[], phrase: string, evidence: string) => {
    const group = standIns(copies, search);
    if (group.length < 2) return;
    const key = group.map(tableKey).sort().join("|");
    if (seen.has(key)) return;
    seen.add(key);
    found.push({ kind: "tables", phrase, options: orderedOptions(group, selectedKeys), evidence });
  };

  const byName = new Map<string, TableInfo[]>();
  for (const table of tables) {
    const name = identifierWords(table.name).join(" ");
    byName.set(name, [...(byName.get(name) ?? []), table]);
  }
  for (const [name, group] of byName) {
    const schemas = new Set(group.map((table) => table.schema));
    if (schemas.size < 2 || !containsPhrase(search.words, name.split(" "))) continue;
    raise(group, name, `${group.length} tables named ${name} in schemas ${[...schemas].join(", ")}`);
  }

  const bySignature = new Map<string, TableInfo[]>();
  for (const table of tables) {
    // Two columns (`id`, `name`) are what unrelated lookup tables share: not evidence of a copy.
    if (table.columns.length < 3) continue;
    const signature = columnSignature(table);
    bySignature.set(signature, [...(bySignature.get(signature) ?? []), table]);
  }
  for (const group of bySignature.values()) {
    if (group.length < 2) continue;
    // A question that names one of the copies means that one.
    if (group.some((table) => containsPhrase(search.words, identifierWords(table.name)))) continue;
    const phrase = group
      .map((table) => identifierWords(table.name).join(" "))
      .sort()
      .join(" or ");
    raise(
      group,
      phrase,
      `${group.map((table) => tableLabel(table.schema, table.name)).join(" and ")} have the same columns`,
    );
  }
  return found;
}
