/**
 * Precision of the "values that match the question" hints on a labelled sample: Spider training questions (every n-th
 * of `train_queries.csv`, seed-free) whose values are looked up as the live retriever does (heuristic keywords, since
 * no model runs here → `retrieveEntities` over the warehouse's values, best value per column), before and after the
 * phrase filter (`valuesWorthShowing`). A hint is labelled relevant when the question's gold SQL holds it as a string
 * literal (case-insensitive; a LIKE pattern's text inside the value counts): the gold SQL is the label, no person
 * judged. Prints one JSON object.
 *
 *   npx tsx bench/retrieval-training/value-hint-precision.ts [--data ../shared/data] [--every 20] [--limit 20]
 */
import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { parseCsvRecords } from "@nlq/adapters";
import { heuristicKeywords, retrieveEntities, schemaNameWords, valuesWorthShowing } from "@nlq/engine";
import { buildWarehouseValueIndex, readRetrievalCorpus } from "@nlq/eval";

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const { values } = parseArgs({
  options: {
    data: { type: "string", default: resolve(repositoryRoot, "../shared/data") },
    every: { type: "string", default: "20" },
    limit: { type: "string", default: "20" },
  },
});
const every = Number(values.every);
const shownLimit = Number(values.limit);
const corpus = await readRetrievalCorpus(`${values.data}/retrieval/spiderunion.corpus.jsonl`);
const { index } = await buildWarehouseValueIndex(`${values.data}/spider-warehouse`, corpus);
const [, ...rows] = parseCsvRecords(await readFile(`${values.data}/spider-warehouse/train_queries.csv`, "utf8"));

/** The string literals of a SQL text, lower case, LIKE wildcards removed. */
function literals(sql: string): string[] {
  return [...sql.matchAll(/'((?:[^']|'')*)'|"((?:[^"]|"")*)"/g)]
    .map((match) => (match[1] ?? match[2] ?? "").replaceAll("''", "'").replaceAll('""', '"'))
    .map((text) => text.replaceAll("%", "").trim().toLowerCase())
    .filter((text) => text.length > 0);
}

const relevant = (value: string, gold: readonly string[]) => {
  const lower = value.trim().toLowerCase();
  return gold.some((literal) => literal === lower || (literal.length >= 3 && lower.includes(literal)));
};

interface Tally {
  shown: number;
  relevant: number;
  duplicates: number;
  questionsWithGoldValue: number;
  goldValueShown: number;
}
const tally = (): Tally => ({ shown: 0, relevant: 0, duplicates: 0, questionsWithGoldValue: 0, goldValueShown: 0 });
const before = tally();
const after = tally();
const afterSchema = tally();
// What the live selector passes: the words of the names of the catalog it shows (here: the question's database).
const schemaWordsByDatabase = new Map<string, Set<string>>();
for (const column of corpus) {
  const database = (column.database ?? "").toLowerCase();
  const words = schemaWordsByDatabase.get(database) ?? new Set<string>();
  for (const word of schemaNameWords([column.table, column.column])) words.add(word);
  schemaWordsByDatabase.set(database, words);
}
let questions = 0;
for (const [position, row] of rows.entries()) {
  if (position % every !== 0) continue;
  const [, question, sql] = row;
  if (!question || !sql) continue;
  questions += 1;
  const gold = literals(sql);
  const entities = await retrieveEntities({ index, keywords: heuristicKeywords(question), readableColumns: "all" });
  const matches = entities.flatMap((entity) =>
    entity.matches.map((match) => ({
      keyword: entity.keyword,
      table: `${match.column.schema}.${match.column.table}`,
      column: match.column.column,
      value: match.value,
    })),
  );
  const count = (into: Tally, shown: typeof matches) => {
    const listed = shown.slice(0, shownLimit);
    const keys = listed.map((match) => `${match.table}.${match.column}=${match.value}`);
    into.shown += listed.length;
    into.duplicates += keys.length - new Set(keys).size;
    into.relevant += listed.filter((match) => relevant(match.value, gold)).length;
    const goldInIndex = gold.length > 0 && matches.some((match) => relevant(match.value, gold));
    if (goldInIndex) {
      into.questionsWithGoldValue += 1;
      if (listed.some((match) => relevant(match.value, gold))) into.goldValueShown += 1;
    }
  };
  count(before, matches);
  count(after, valuesWorthShowing(question, matches));
  const databaseSchemaWords = schemaWordsByDatabase.get((row[0] ?? "").toLowerCase()) ?? new Set<string>();
  count(afterSchema, valuesWorthShowing(question, matches, { schemaWords: databaseSchemaWords }));
}
const summary = (figures: Tally) => ({
  ...figures,
  perQuestion: Number((figures.shown / questions).toFixed(2)),
  precision: Number((figures.relevant / Math.max(1, figures.shown)).toFixed(3)),
  goldValueRecall: Number((figures.goldValueShown / Math.max(1, figures.questionsWithGoldValue)).toFixed(3)),
});
console.log(
  JSON.stringify({
    sample: `every ${every}th of train_queries.csv: ${questions} questions; keywords: heuristicKeywords (no model)`,
    label: "relevant = the gold SQL holds the value as a string literal",
    before: summary(before),
    after: summary(after),
    afterWithSchemaWords: summary(afterSchema),
  }),
);
