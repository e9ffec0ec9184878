/**
 * A seeded sample of Spider *training* questions for real-model trials (issue 18): one question from each of
 * `--databases` distinct databases of the warehouse, written in train_queries.csv's own format so `nlq eval
 * --questions` reads it unchanged, plus the list of the databases (to load each alone for the single-database runs).
 *
 *   npx tsx bench/real-model/sample-spider-questions.ts --out /tmp/sample.csv [--databases 30] [--seed 27]
 *     [--data ../shared/data/spider-warehouse]
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { parseCsvRecords } from "@nlq/adapters";
import { spiderTrialDatabases } from "./spider-trial-databases";

const { values } = parseArgs({
  options: {
    out: { type: "string" },
    databases: { type: "string", default: "30" },
    seed: { type: "string", default: "27" },
    data: { type: "string", default: join(import.meta.dirname, "../../../shared/data/spider-warehouse") },
  },
});
if (values.out === undefined) throw new Error("--out <file.csv> is required");

const missing = readFileSync(join(values.data, "MISSING_BLOBS.txt"), "utf8");
const [header, ...records] = parseCsvRecords(readFileSync(join(values.data, "train_queries.csv"), "utf8"));
if (header === undefined) throw new Error("train_queries.csv is empty");
const { chosen, byDatabase, random } = spiderTrialDatabases(
  records,
  missing,
  Number(values.seed),
  Number(values.databases),
);
const quote = (field: string) => `"${field.replaceAll('"', '""')}"`;
const lines = [header.join(",")];
for (const database of chosen) {
  const questions = byDatabase.get(database) ?? [];
  const record = questions[Math.floor(random() * questions.length)] as string[];
  lines.push(record.map(quote).join(","));
}
writeFileSync(values.out, `${lines.join("\n")}\n`);
console.log(chosen.join(","));
