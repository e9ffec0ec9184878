import { type ColumnInfo, type TableInfo, tableKey } from "../catalog/catalog-types";
import { type Ambiguity, type ReadingSearch, tableLabel } from "./ambiguity";
import { areComplementary, containsPhrase, identifierNoise, identifierWords, unitWords } from "./schema-words";

/** Most columns offered for one phrase. */
const maxColumnOptions = 3;

/** Question words that name no column (they are about counting or showing, not about what). */
const notAColumnPhrase: ReadonlySet<string> = new Set([
  "number",
  "count",
  "total",
  "all",
  "each",
  "every",
  "many",
  "much",
  "list",
  "show",
  "give",
  "find",
  "what",
  "which",
  "who",
  "the",
  "and",
  "for",
  "with",
  "per",
  "average",
  "value",
  "type",
]);

/** Text, number, time or other, so that `birth_date` and `birth_place` are never two readings of "birth". */
export function typeFamily(column: ColumnInfo): string {
  const type = column.dataType.toLowerCase();
  if (/char|text|citext|name|uuid/.test(type)) return "text";
  if (/int|numeric|decimal|real|double|money|serial/.test(type)) return "number";
  if (/date|time/.test(type)) return "time";
  return type;
}

/** A table's primary-key and foreign-key columns. */
export function keyColumns(table: TableInfo): Set<string> {
  return new Set([...table.primaryKey, ...table.foreignKeys.flatMap((foreignKey) => foreignKey.columns)]);
}

/**
 * Several columns of one selected table that fit one word of the question about equally (AmbiQT's column synonyms,
 * where the names tell: `artist_name` and `performer_name`, or `full_name` and `given_name`,
 * for "name"). The word must be the columns' last word (what they are, not whose: `customer_name` and `customer_phone`
 * share the customer, not a meaning). Raised only when
 * - no column of the table is named by the word alone (a column `name` is what "name" means),
 * - the question names none of the columns' other words (the question "stage name" says which),
 * - the columns hold the same kind of value, and differ by qualifiers that are not two sides of one thing
 *   (`first_name`/`last_name`, `home_team`/`away_team`, `start_date`/`end_date`, `line1`/`line2`),
 * - the word is not the table's own name (`document_name`, `document_type` of `documents`) and not a key column,
 * - no other selected table has a column the word names (alone: `restaurant.name` for "name" beside
 *   `location.street_name`, `location.city_name`; or as its last word: `sales.sale_date` beside
 *   `salespersons.hire_date`, `salespersons.termination_date` for "date"): the question's other words then say which
 *   table the word is about, and the other table's columns are no reading of it (a false alarm measured on defog's
 *   questions, BENCHMARKS.md).
 * Columns whose names the schema alone cannot relate (`years_old`, `birthdate` for "age") are not found here. Also
 * one quantity in several units the question does not name (`price_usd`, `price_eur` for "price": `unitReadings`).
 */
export function findColumnReadings(search: ReadingSearch): Ambiguity[] {
  const questionWords = new Set(search.words);
  const found: Ambiguity[] = [];
  const namers = phraseNamers(search.selected.tables);
  for (const table of search.selected.tables) {
    const tableWords = new Set(identifierWords(table.name));
    const keys = keyColumns(table);
    const columns = table.columns
      .filter((column) => !keys.has(column.name))
      .map((column) => ({ column, words: identifierWords(column.name) }))
      .filter(({ words }) => !words.some((word) => identifierNoise.has(word)));
    const phrases = new Set(
      search.words.filter((word) => word.length >= 3 && !notAColumnPhrase.has(word) && !tableWords.has(word)),
    );
    for (const phrase of phrases) {
      // The phrase is what the columns are (their last word: `artist_name`, `performer_name`), not what they belong to
      // (`customer_name`, `customer_phone` of a customer).
      const fitting = columns.filter(({ words }) => words.at(-1) === phrase);
      if (fitting.length < 2) continue;
      if ([...(namers.get(phrase) ?? [])].some((other) => other !== table)) continue;
      if (fitting.some(({ words }) => words.length === 1)) continue;
      const qualifiers = fitting.map(({ words }) => words.filter((word) => word !== phrase && !tableWords.has(word)));
      if (qualifiers.some((words) => words.length === 0 || words.some((word) => questionWords.has(word)))) continue;
      const options = fitting.filter((_, index) => {
        const family = typeFamily(fitting[index]!.column);
        return fitting.every(
          (other, otherIndex) =>
            otherIndex === index ||
            (typeFamily(other.column) === family &&
              !qualifiers[index]!.some((word) =>
                qualifiers[otherIndex]!.some((otherWord) => areComplementary(word, otherWord)),
              )),
        );
      });
      if (options.length < 2) continue;
      const label = tableLabel(table.schema, table.name);
      found.push({
        kind: "columns",
        phrase,
        options: options.slice(0, maxColumnOptions).map(({ column }) => ({
          label: `${label}.${column.name}`,
          elements: [`${tableKey(table)}.${column.name}`],
          tables: [tableKey(table)],
        })),
        evidence: `${options.map(({ column }) => column.name).join(", ")} of ${label} all fit "${phrase}"`,
      });
    }
  }
  for (const table of search.selected.tables) found.push(...unitReadings(table, search, questionWords));
  return found;
}

/** For each word, the selected tables with a (non-key) column it names alone or as the column's last word. */
function phraseNamers(tables: readonly TableInfo[]): Map<string, Set<TableInfo>> {
  const namers = new Map<string, Set<TableInfo>>();
  for (const table of tables) {
    const keys = keyColumns(table);
    for (const column of table.columns) {
      if (keys.has(column.name)) continue;
      const last = identifierWords(column.name).at(-1);
      if (last === undefined) continue;
      const tablesOfWord = namers.get(last) ?? new Set<TableInfo>();
      tablesOfWord.add(table);
      namers.set(last, tablesOfWord);
    }
  }
  return namers;
}

/**
 * One quantity in several units (an unqualified unit or clock): columns of one table made of the same words the
 * question says, then one unit word each (`price_usd`, `price_eur`; `height_cm`, `height_inch`; `opened_utc`,
 * `opened_local`), when the question names none of the units. The words in front are the phrase.
 */
function unitReadings(table: TableInfo, search: ReadingSearch, questionWords: ReadonlySet<string>): Ambiguity[] {
  const keys = keyColumns(table);
  const byBase = new Map<string, ColumnInfo[]>();
  for (const column of table.columns) {
    if (keys.has(column.name)) continue;
    const words = identifierWords(column.name).filter((word) => word !== "in");
    const unit = words.at(-1);
    if (words.length < 2 || unit === undefined || !unitWords.has(unit)) continue;
    const base = words.slice(0, -1).join(" ");
    byBase.set(base, [...(byBase.get(base) ?? []), column]);
  }
  const label = tableLabel(table.schema, table.name);
  const found: Ambiguity[] = [];
  for (const [base, columns] of byBase) {
    if (columns.length < 2 || !containsPhrase(search.words, base.split(" "))) continue;
    const units = columns.map((column) => identifierWords(column.name).at(-1)!);
    if (units.some((unit) => questionWords.has(unit)) || new Set(columns.map(typeFamily)).size > 1) continue;
    found.push({
      kind: "columns",
      phrase: base,
      options: columns.slice(0, maxColumnOptions).map((column) => ({
        label: `${label}.${column.name}`,
        elements: [`${tableKey(table)}.${column.name}`],
        tables: [tableKey(table)],
      })),
      evidence: `${columns.map((column) => column.name).join(", ")} of ${label} hold "${base}" in ${units.join(", ")}`,
    });
  }
  return found;
}
