/**
 * After a real-model trial on the warehouse (run-spider-trial.sh through the model relay): the share of filter_column
 * batches that held at least one gold column of their question, read from the relay's request log (every prompt the
 * answerers saw) and the sample's gold SQL (gold columns resolved against the SpiderUnion corpus by the training
 * data's resolver, `sql-gold-columns.ts`). Prints one JSON object.
 *
 *   npx tsx bench/real-model/filter-batch-gold-share.ts --relay /tmp/relay-retrieval --sample /tmp/sample-spider.csv
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { parseCsvRecords } from "@nlq/adapters";
import { readRetrievalCorpus } from "@nlq/eval";
import { goldColumnKeys } from "../retrieval-training/sql-gold-columns";

const { values } = parseArgs({
  options: {
    relay: { type: "string" },
    sample: { type: "string" },
    corpus: {
      type: "string",
      default: join(import.meta.dirname, "../../../shared/data/retrieval/spiderunion.corpus.jsonl"),
    },
  },
});
if (!values.relay || !values.sample) throw new Error("--relay <dir> and --sample <csv> are required");

const corpus = await readRetrievalCorpus(values.corpus);
const [, ...rows] = parseCsvRecords(readFileSync(values.sample, "utf8"));
const goldByQuestion = new Map<string, Set<string>>();
for (const [database, question, sql] of rows) {
  if (!database || !question || !sql) continue;
  const columns = corpus.filter((column) => column.database === database.toLowerCase());
  goldByQuestion.set(question.trim(), new Set(goldColumnKeys(columns, sql).map((key) => key.toLowerCase())));
}

/** The user-visible text of a relayed request body (chat completions or Responses API). */
function promptText(body: unknown): string {
  const texts: string[] = [];
  const visit = (value: unknown) => {
    if (typeof value === "string") texts.push(value);
    else if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === "object") for (const entry of Object.values(value)) visit(entry);
  };
  visit((body as { messages?: unknown; input?: unknown }).messages ?? (body as { input?: unknown }).input);
  return texts.join("\n");
}

let batches = 0;
let holdingGold = 0;
let unknownQuestion = 0;
const perQuestion = new Map<string, { batches: number; holdingGold: number }>();
const logDirectory = join(values.relay, "log");
for (const name of readdirSync(logDirectory).filter((file) => file.endsWith(".request.json"))) {
  const text = promptText(JSON.parse(readFileSync(join(logDirectory, name), "utf8")));
  if (!text.includes("You evaluate whether database columns are relevant")) continue;
  const question = /\nQuestion: (.*)\n/.exec(text)?.[1]?.trim() ?? "";
  const gold = goldByQuestion.get(question);
  if (!gold) {
    unknownQuestion += 1;
    continue;
  }
  const shown = [...text.matchAll(/^- ([^\s(]+) \(/gm)].map((match) => match[1]!.toLowerCase());
  const hit = shown.some((column) => gold.has(column));
  batches += 1;
  if (hit) holdingGold += 1;
  const tally = perQuestion.get(question) ?? { batches: 0, holdingGold: 0 };
  tally.batches += 1;
  if (hit) tally.holdingGold += 1;
  perQuestion.set(question, tally);
}
console.log(
  JSON.stringify({
    filterBatches: batches,
    holdingAGoldColumn: holdingGold,
    share: batches === 0 ? null : Number((holdingGold / batches).toFixed(3)),
    questionsWithFilterBatches: perQuestion.size,
    questionsWithNoBatchHoldingGold: [...perQuestion.values()].filter((tally) => tally.holdingGold === 0).length,
    batchesOfQuestionsNotInTheSample: unknownQuestion,
  }),
);
