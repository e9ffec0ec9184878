import { type TableInfo, tableKey } from "../catalog/catalog-types";
import { type Ambiguity, type ReadingSearch, tableLabel } from "./ambiguity";
import { identifierWords, mentionsColumn } from "./schema-words";

/** A split-out table holds its key and a few columns at most. */
const maxSplitTableColumns = 4;

/** Each table's name as words, computed once per question (a warehouse has hundreds of tables). */
type NameWords = ReadonlyMap<TableInfo, readonly string[]>;

/** Whether `split`'s name says it is part of `parent` (`singer_country` of `singer`, `customer_addresses` of `customers`). */
function namedAfter(split: TableInfo, parent: TableInfo, names: NameWords): boolean {
  const splitWords = names.get(split) ?? [];
  const parentWords = names.get(parent) ?? [];
  return splitWords.length > parentWords.length && parentWords.every((word, index) => splitWords[index] === word);
}

/**
 * The table `split` hangs off: one named as the start of its name whose key it holds (through its foreign key, or the
 * same column as the parent's one-column primary key). A table that merely references another (`department.head` of
 * `physician`) is not split out of it.
 */
function parentOf(
  split: TableInfo,
  tables: readonly TableInfo[],
  names: NameWords,
): { parent: TableInfo; keys: string[] } | undefined {
  for (const foreignKey of split.foreignKeys) {
    const parent = tables.find(
      (table) => table.schema === foreignKey.referencedSchema && table.name === foreignKey.referencedTable,
    );
    if (parent && parent !== split && namedAfter(split, parent, names))
      return { parent, keys: [...foreignKey.columns] };
  }
  for (const parent of tables) {
    if (parent === split || parent.schema !== split.schema || parent.primaryKey.length !== 1) continue;
    if (!namedAfter(split, parent, names)) continue;
    const key = parent.primaryKey[0]!;
    if (split.columns.some((column) => column.name === key)) return { parent, keys: [key] };
  }
  return undefined;
}

/**
 * Another join path (AmbiQT's join ambiguity): a small table named after another that repeats one of its columns
 * beside its key (`singer_country(singer_id, country)` beside `singer.country`), so the column can be read directly or
 * through the split-out table. Raised for each such column the question names, when the parent table is selected.
 */
export function findJoinPathReadings(search: ReadingSearch): Ambiguity[] {
  const selectedKeys = new Set(search.selected.tables.map(tableKey));
  const found: Ambiguity[] = [];
  const names: NameWords = new Map(search.catalog.tables.map((table) => [table, identifierWords(table.name)]));
  for (const split of search.catalog.tables) {
    if (split.columns.length > maxSplitTableColumns || split.columns.length < 2) continue;
    const link = parentOf(split, search.catalog.tables, names);
    if (!link || !selectedKeys.has(tableKey(link.parent))) continue;
    const parentColumns = new Set(link.parent.columns.map((column) => column.name));
    const repeated = split.columns.filter(
      (column) => !link.keys.includes(column.name) && !split.primaryKey.includes(column.name),
    );
    if (repeated.length === 0 || !repeated.every((column) => parentColumns.has(column.name))) continue;
    for (const column of repeated) {
      const words = identifierWords(column.name);
      if (!mentionsColumn(search.words, column.name)) continue;
      const parent = tableLabel(link.parent.schema, link.parent.name);
      const through = tableLabel(split.schema, split.name);
      found.push({
        kind: "join-path",
        phrase: words.join(" "),
        options: [
          {
            label: `${parent}.${column.name}`,
            elements: [`${tableKey(link.parent)}.${column.name}`],
            tables: [tableKey(link.parent)],
          },
          {
            label: `${through}.${column.name} (joined to ${parent} on ${link.keys.join(", ")})`,
            elements: [`${tableKey(split)}.${column.name}`],
            tables: [tableKey(link.parent), tableKey(split)],
          },
        ],
        evidence: `${through} repeats ${parent}.${column.name} beside ${parent}'s key`,
      });
    }
  }
  return found;
}
