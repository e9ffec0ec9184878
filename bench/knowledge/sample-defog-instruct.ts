/**
 * Issue 27 item 5: defog's instruct questions (sql-eval's `instruct_advanced` and `instruct_basic`) as the JSONL
 * `nlq eval --questions` reads, in one of four conditions, each question on a database holding only its defog database
 * (`nlq_defog_<db>`, schema `<db>`, loaded here when missing):
 *
 * - `none`: no hint;
 * - `question-hint`: the question's own `instructions` as its hint (instruct_basic has none: no hint);
 * - `glossary-hint`: the database's whole glossary (the distinct lines of its `full_instructions`) as every hint;
 * - `knowledge`: no hint — the glossary is imported once per database as knowledge (make-defog-knowledge.ts, then
 *   `nlq knowledge import`) and retrieved per question.
 *
 *   npx tsx bench/knowledge/sample-defog-instruct.ts --out questions.jsonl --condition knowledge
 *     [--sets instruct_advanced,instruct_basic] [--per-database 6] [--seed 27]
 *     [--server postgresql://postgres@127.0.0.1:5432/postgres] [--defog ../shared/data/defog]
 *
 * `--per-database N` draws N questions per set and database (seeded, the same draw in every condition); default all.
 */
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { alwaysQuoteIdentifier, seededRandom } from "@nlq/engine";
import { defaultDefogDirectory, loadDefogDatabases } from "@nlq/eval";
import pg from "pg";
import {
  type DefogQuestionRow,
  glossaryLines,
  type InstructSet,
  instructSets,
  readInstructQuestions,
} from "./defog-instructions";

const conditions = ["none", "question-hint", "glossary-hint", "knowledge"] as const;
type Condition = (typeof conditions)[number];

const { values } = parseArgs({
  options: {
    out: { type: "string" },
    condition: { type: "string", default: "none" },
    sets: { type: "string", default: instructSets.join(",") },
    "per-database": { type: "string" },
    seed: { type: "string", default: "27" },
    server: { type: "string", default: "postgresql://postgres@127.0.0.1:5432/postgres" },
    defog: { type: "string", default: defaultDefogDirectory },
  },
});
if (values.out === undefined) throw new Error("--out <questions.jsonl> is required");
const condition = values.condition as Condition;
if (!conditions.includes(condition)) throw new Error(`--condition must be one of ${conditions.join(", ")}`);
const sets = values.sets.split(",").map((set) => set.trim()) as InstructSet[];
for (const set of sets) if (!instructSets.includes(set)) throw new Error(`--sets: unknown set ${set}`);
const perDatabase = values["per-database"] === undefined ? undefined : Number(values["per-database"]);

/** The same seeded draw whatever the condition: per set and database, shuffled, the first N, in file order. */
function draw(rows: readonly DefogQuestionRow[]): DefogQuestionRow[] {
  if (perDatabase === undefined) return [...rows];
  const random = seededRandom(Number(values.seed));
  const chosen: DefogQuestionRow[] = [];
  for (const database of [...new Set(rows.map((row) => row.database))].sort()) {
    const own = rows.filter((row) => row.database === database);
    for (let index = own.length - 1; index > 0; index--) {
      const other = Math.floor(random() * (index + 1));
      [own[index], own[other]] = [own[other]!, own[index]!];
    }
    chosen.push(...own.slice(0, perDatabase));
  }
  return chosen.sort((left, right) => left.row - right.row);
}

const chosen = sets.flatMap((set) => draw(readInstructQuestions(values.defog, set)));
const glossaries = glossaryLines(values.defog);
const databases = [...new Set(chosen.map((row) => row.database))].sort();

const admin = new pg.Client({ connectionString: values.server });
await admin.connect();
try {
  for (const database of databases) {
    const name = `nlq_defog_${database}`;
    const exists = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if ((exists.rowCount ?? 0) > 0) continue;
    await admin.query(`CREATE DATABASE ${alwaysQuoteIdentifier(name)}`);
    const url = new URL(values.server);
    url.pathname = `/${name}`;
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      await loadDefogDatabases(client, values.defog, [database]);
    } finally {
      await client.end();
    }
  }
} finally {
  await admin.end();
}

function hintOf(row: DefogQuestionRow): string | undefined {
  if (condition === "question-hint") return row.instructions;
  if (condition === "glossary-hint") return glossaries.get(row.database)?.join("\n");
  return undefined;
}

const lines = chosen.map((row) => {
  const hint = hintOf(row);
  return JSON.stringify({
    id: `${row.set}-${row.row}`,
    question: row.question,
    gold: row.gold,
    schema: row.database,
    database: `nlq_defog_${row.database}`,
    category: `${row.set}/${row.category}`,
    ...(hint ? { hint } : {}),
  });
});
writeFileSync(values.out, `${lines.join("\n")}\n`);
process.stdout.write(
  `${lines.length} questions (${sets.join(", ")}) over ${databases.length} databases, condition ${condition}, written to ${values.out}\n`,
);
