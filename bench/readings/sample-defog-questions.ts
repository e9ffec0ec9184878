/**
 * A seeded sample of defog questions with one reading each, for false alarms and EX (issue 26), held out from the
 * 2026-11-27 real-model trial: `questions_gen_postgres.csv` without the 20 rows that trial drew (Python's
 * `random.seed(27); random.sample(rows, 20)` over the CSV's rows: rows 17, 19, 47, 51, 62, 64, 65, 66, 71, 74, 86, 96,
 * 104, 123, 126, 139, 167, 180, 187, 209). Each question is asked on a database holding only its defog database
 * (`nlq_defog_<db>`, schema `<db>`), loaded here when missing.
 *
 *   npx tsx bench/readings/sample-defog-questions.ts --out /tmp/readings/defog.jsonl [--questions 30] [--seed 26]
 *     [--server postgresql://postgres@127.0.0.1:5432/postgres] [--defog ../shared/data/defog]
 *
 * Writes the JSONL `nlq eval --questions` reads (defog's gold notation kept: `{a,b}` and `;` alternatives).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { parseCsvRecords } from "@nlq/adapters";
import { seededRandom } from "@nlq/engine";
import { defaultDefogDirectory } from "@nlq/eval";
import { loadDefogTrialDatabases } from "./load-defog-trial-databases";

/** The rows (1 = the first after the header) the 2026-11-27 trial drew from questions_gen_postgres.csv. */
export const trialRows = new Set([
  17, 19, 47, 51, 62, 64, 65, 66, 71, 74, 86, 96, 104, 123, 126, 139, 167, 180, 187, 209,
]);

const { values } = parseArgs({
  options: {
    out: { type: "string" },
    questions: { type: "string", default: "30" },
    seed: { type: "string", default: "26" },
    server: { type: "string", default: "postgresql://postgres@127.0.0.1:5432/postgres" },
    defog: { type: "string", default: defaultDefogDirectory },
  },
});
if (values.out === undefined) throw new Error("--out <questions.jsonl> is required");
const file = join(values.defog, "questions/questions_gen_postgres.csv");
const [header, ...records] = parseCsvRecords(readFileSync(file, "utf8"));
if (header === undefined) throw new Error(`${file} is empty`);
const column = (name: string) => header.indexOf(name);
const rows = records.map((record, index) => ({ record, row: index + 1 })).filter(({ row }) => !trialRows.has(row));
const random = seededRandom(Number(values.seed));
for (let index = rows.length - 1; index > 0; index--) {
  const other = Math.floor(random() * (index + 1));
  [rows[index], rows[other]] = [rows[other]!, rows[index]!];
}
const chosen = rows.slice(0, Number(values.questions)).sort((left, right) => left.row - right.row);
const databases = [...new Set(chosen.map(({ record }) => record[column("db_name")]!))].sort();

await loadDefogTrialDatabases(values.server, values.defog, databases);

const lines = chosen.map(({ record, row }) => {
  const field = (name: string) => (column(name) === -1 ? undefined : record[column(name)]);
  const database = field("db_name")!;
  const hint = field("instructions");
  return JSON.stringify({
    id: `questions_gen_postgres-${row}`,
    question: field("question"),
    gold: field("query"),
    schema: database,
    database: `nlq_defog_${database}`,
    category: field("query_category") || "all",
    ...(hint ? { hint } : {}),
  });
});
writeFileSync(values.out, `${lines.join("\n")}\n`);
process.stdout.write(`${lines.length} questions over ${databases.length} databases written to ${values.out}\n`);
