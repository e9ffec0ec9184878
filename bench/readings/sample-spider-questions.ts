/**
 * A seeded sample of Spider training questions with one reading each, for false alarms and EX (issue 26), held out
 * from what the repository tunes on: only databases the learnt retrieval model never trained on (the 20 % held out
 * by `bench/retrieval-training/train.ts`, seed 7) and none of the 2026-11-27 real-model trial's 30 databases
 * (`bench/real-model/sample-spider-questions.ts`, seed 27). Each question is asked on a database holding only its
 * Spider database (`spider_one_<db>`, as the trial's single-database setting), loaded here when missing; a question
 * whose gold does not translate or run there is replaced by another.
 *
 *   npx tsx bench/readings/sample-spider-questions.ts --out /tmp/readings/spider.jsonl [--questions 30] [--seed 26]
 *     [--server postgresql://postgres@127.0.0.1:5432/postgres] [--data ../shared/data]
 *
 * Writes the JSONL `nlq eval --questions` reads (gold translated to PostgreSQL, `schema`, `database`).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createPgExecutor, parseCsvRecords } from "@nlq/adapters";
import { loadSqlParser, seededRandom } from "@nlq/engine";
import { createEvaluationExecutor, readRetrievalCorpus, translateMysqlGold } from "@nlq/eval";
import pg from "pg";
import { spiderTrialDatabases } from "../real-model/spider-trial-databases";
import { heldOutDatabases, readSpiderTrainingQuestions } from "../retrieval-training/training-data";
import { loadSpiderWarehouse } from "../spider-warehouse/load-spider-warehouse";

const { values } = parseArgs({
  options: {
    out: { type: "string" },
    questions: { type: "string", default: "30" },
    seed: { type: "string", default: "26" },
    server: { type: "string", default: "postgresql://postgres@127.0.0.1:5432/postgres" },
    data: { type: "string", default: join(import.meta.dirname, "../../../shared/data") },
  },
});
if (values.out === undefined) throw new Error("--out <questions.jsonl> is required");
const warehouse = join(values.data, "spider-warehouse");
const queries = join(warehouse, "train_queries.csv");
const missing = readFileSync(join(warehouse, "MISSING_BLOBS.txt"), "utf8");
const [, ...records] = parseCsvRecords(readFileSync(queries, "utf8"));

// What the repository tunes on, left out: the learnt retrieval model's training databases, the trial's databases.
const corpus = await readRetrievalCorpus(join(values.data, "retrieval/spiderunion.corpus.jsonl"));
const retrievalHeldOut = heldOutDatabases(
  (await readSpiderTrainingQuestions(queries, corpus)).map((question) => question.database),
  0.2,
  7,
);
const trial = new Set(spiderTrialDatabases(records, missing, 27, 30).chosen.map((name) => name.toLowerCase()));
const candidates = records
  .map((record, index) => ({ record, row: index + 2 }))
  .filter(({ record }) => {
    const database = (record[0] ?? "").toLowerCase();
    return retrievalHeldOut.has(database) && !trial.has(database) && !missing.includes(`${record[0]}/`);
  });

// Seeded order; then every database's first question before any database's second.
const random = seededRandom(Number(values.seed));
for (let index = candidates.length - 1; index > 0; index--) {
  const other = Math.floor(random() * (index + 1));
  [candidates[index], candidates[other]] = [candidates[other]!, candidates[index]!];
}
const seen = new Map<string, number>();
const ordered = candidates
  .map((candidate, index) => {
    const database = candidate.record[0]!;
    seen.set(database, (seen.get(database) ?? 0) + 1);
    return { ...candidate, rank: seen.get(database)!, index };
  })
  .sort((left, right) => left.rank - right.rank || left.index - right.index);

await loadSqlParser();
const wanted = Number(values.questions);
const lines: string[] = [];
const skipped: string[] = [];
const clients = new Map<string, { client: pg.Client; execute: ReturnType<typeof createEvaluationExecutor> }>();
const target = async (database: string) => {
  const name = `spider_one_${database.toLowerCase()}`;
  const url = new URL(values.server);
  url.pathname = `/${name}`;
  if (!clients.has(name)) {
    await loadSpiderWarehouse({ url: url.toString(), dataDirectory: warehouse, only: [database] });
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    clients.set(name, { client, execute: createEvaluationExecutor({ session: createPgExecutor(client) }) });
  }
  return { name, execute: clients.get(name)!.execute };
};
try {
  for (const { record, row } of ordered) {
    if (lines.length >= wanted) break;
    const [database, question, sql] = [record[0]!, record[1]!, record[2]!];
    const translation = translateMysqlGold(sql);
    if (!translation.ok) {
      skipped.push(`row ${row} (${database}): ${translation.error}`);
      continue;
    }
    const { name, execute } = await target(database);
    const run = await execute(translation.sql, database.toLowerCase());
    if (!run.ok) {
      skipped.push(`row ${row} (${database}): gold does not run: ${run.error}`);
      continue;
    }
    lines.push(
      JSON.stringify({
        id: `spider-${row}`,
        question,
        gold: translation.sql,
        schema: database.toLowerCase(),
        database: name,
        category: "spider",
        sourceGold: sql,
      }),
    );
  }
} finally {
  for (const { client } of clients.values()) await client.end();
}
writeFileSync(values.out, `${lines.join("\n")}\n`);
process.stderr.write(`${skipped.map((line) => `skipped ${line}\n`).join("")}`);
process.stdout.write(
  `${lines.length} questions over ${clients.size} databases written to ${values.out} (from ${retrievalHeldOut.size} retrieval-held-out databases, ${trial.size} trial databases left out)\n`,
);
