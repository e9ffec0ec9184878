import { type TableInfo, tableKey } from "../catalog/catalog-types";
import { type Ambiguity, type ReadingSearch, tableLabel } from "./ambiguity";
import { identifierWords, mentionsColumn } from "./schema-words";

/** A stored aggregate's column: `avg_capacity`, `total_sales`, `max_age`. */
const aggregateColumn = /^(sum|avg|average|mean|min|minimum|max|maximum|total|count|number)_(.+)$/i;

/** Question words that ask for an aggregate, by the aggregate they ask for. */
const aggregateWords: ReadonlyMap<string, string> = new Map([
  ["average", "avg"],
  ["mean", "avg"],
  ["avg", "avg"],
  ["sum", "sum"],
  ["total", "sum"],
  ["minimum", "min"],
  ["min", "min"],
  ["lowest", "min"],
  ["smallest", "min"],
  ["least", "min"],
  ["maximum", "max"],
  ["max", "max"],
  ["highest", "max"],
  ["largest", "max"],
  ["biggest", "max"],
  ["greatest", "max"],
  ["most", "max"],
]);

/** The aggregate a stored column's prefix names. */
const storedAggregate: Readonly<Record<string, string>> = {
  sum: "sum",
  total: "sum",
  avg: "avg",
  average: "avg",
  mean: "avg",
  min: "min",
  minimum: "min",
  max: "max",
  maximum: "max",
  count: "count",
  number: "count",
};

/**
 * A stored aggregate beside the rows it summarises (AmbiQT's precomputed aggregates): a table with columns such as
 * `avg_capacity`, `max_capacity` next to a selected table with `capacity`, for a question that asks for an aggregate of
 * that column the table stores (an average asked of a table that stores only `min_salary` and `max_salary` is not). One reading computes it from the rows, the other reads the stored figures (which may be stale).
 */
export function findStoredAggregateReadings(search: ReadingSearch): Ambiguity[] {
  const asked = new Set(search.words.flatMap((word) => (aggregateWords.has(word) ? [aggregateWords.get(word)!] : [])));
  if (asked.size === 0) return [];
  const found: Ambiguity[] = [];
  const selected = search.catalog.tables.filter((table) =>
    search.selected.tables.some((chosen) => tableKey(chosen) === tableKey(table)),
  );
  for (const stored of search.catalog.tables) {
    const byColumn = new Map<string, string[]>();
    for (const column of stored.columns) {
      const match = aggregateColumn.exec(column.name);
      if (match && asked.has(storedAggregate[match[1]!.toLowerCase()]!))
        byColumn.set(match[2]!.toLowerCase(), [...(byColumn.get(match[2]!.toLowerCase()) ?? []), column.name]);
    }
    for (const [base, storedColumns] of byColumn) {
      const words = identifierWords(base);
      if (!mentionsColumn(search.words, base)) continue;
      const source = selected.find(
        (table: TableInfo) => table !== stored && table.columns.some((column) => column.name.toLowerCase() === base),
      );
      if (!source) continue;
      const sourceColumn = source.columns.find((column) => column.name.toLowerCase() === base)!.name;
      const sourceLabel = tableLabel(source.schema, source.name);
      const storedLabel = tableLabel(stored.schema, stored.name);
      found.push({
        kind: "stored-aggregate",
        phrase: words.join(" "),
        options: [
          {
            label: `computed from the rows of ${sourceLabel} (${sourceLabel}.${sourceColumn})`,
            elements: [`${tableKey(source)}.${sourceColumn}`],
            tables: [tableKey(source)],
          },
          {
            label: `the stored figures in ${storedLabel} (${storedColumns.join(", ")})`,
            elements: storedColumns.map((column) => `${tableKey(stored)}.${column}`),
            tables: [tableKey(stored)],
          },
        ],
        evidence: `${storedLabel} stores ${storedColumns.join(", ")} of ${sourceLabel}.${sourceColumn}`,
      });
    }
  }
  return found;
}
