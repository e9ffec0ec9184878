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

/**
 * Tables that fit one phrase equally (AmbiQT's table synonyms; a warehouse's copies):
 * - tables with exactly the same columns (names, any order; at least three), one of them in the selected schema, none
 *   of them named by the question (`artist` and `performer` for "singers"): the phrase is their names;
 * - tables of one name (singular) in several schemas whose name the question says ("countries" with `geo.country`,
 *   `sales.country`, `world.country`), one of them selected.
 * Views, partitions of a partitioned table and tables the selected schema does not touch raise nothing.
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
  const raise = (group: readonly TableInfo[], phrase: string, evidence: string) => {
    if (group.length < 2 || !group.some((table) => selectedKeys.has(tableKey(table)))) return;
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
