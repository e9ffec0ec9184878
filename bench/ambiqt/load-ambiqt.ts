/**
 * Makes AmbiQT's ambiguity real in PostgreSQL (issue 26): each example in its own database holding its Spider
 * database with the schema change applied and values that drifted, so both readings exist and return different rows;
 * writes the questions file `nlq eval --questions` reads (both golds) and a report of what was built and dropped.
 *
 *   npx tsx bench/ambiqt/load-ambiqt.ts --out /tmp/ambiqt/questions.jsonl [--per-type 10 | --all] [--seed 26]
 *     [--types C,T,J,P] [--server postgresql://postgres@127.0.0.1:5432/postgres] [--prefix nlq_ambiqt]
 *     [--ambiqt ../shared/data/ambiqt/ambiqt-dev.jsonl] [--spider ../shared/data/spider-warehouse] [--report FILE]
 *   npx tsx bench/ambiqt/load-ambiqt.ts --drop [--prefix nlq_ambiqt]      # drops every <prefix>_<number> database
 *
 * --per-type N: the first N examples of each type, in the seeded order (`orderAmbiqtRows`), that materialise, each
 * question once (AmbiQT asks some under several types); the ones dropped on the way are reported. --all: every example of the file (a held-out file). The server URL must be a
 * superuser's (databases are created and dropped; the stored aggregates are built with foreign-key triggers off).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import pg from "pg";
import { type AmbiqtRow, readAmbiqtRows } from "./ambiqt-row";
import { dropDatabase, type MaterialisedQuestion, materialiseQuestion } from "./materialise-question";
import { missingTables, orderAmbiqtRows, type SkippedRow } from "./order-ambiqt-rows";

export interface LoadAmbiqtOptions {
  /** The AmbiQT JSONL file. */
  readonly ambiqtFile: string;
  /** The spider-warehouse data folder (`databases/`, `MISSING_BLOBS.txt`). */
  readonly spiderDirectory: string;
  /** A superuser's URL of the server the databases are created on. */
  readonly serverUrl: string;
  /** Examples kept per type, each question text once (`undefined`: every example, repeats included). */
  readonly perType?: number;
  /** Seed of the order and of every drift. */
  readonly seed: number;
  /** Types to materialise. Default all four. */
  readonly types?: readonly string[];
  /** Database names are `<prefix>_<number>`. */
  readonly prefix: string;
  readonly log?: (line: string) => void;
}

export interface LoadAmbiqtReport {
  readonly questions: MaterialisedQuestion[];
  /** Examples tried and dropped (their database removed), or left out before anything was built. */
  readonly dropped: SkippedRow[];
  readonly unreadable: ReadonlyArray<{ readonly line: number; readonly reason: string }>;
  readonly perType: Readonly<Record<string, number>>;
}

/** Materialises the examples (see the file's comment) and returns what was kept and dropped. */
export async function loadAmbiqt(options: LoadAmbiqtOptions): Promise<LoadAmbiqtReport> {
  const log = options.log ?? (() => undefined);
  const types = options.types ?? ["C", "T", "J", "P"];
  const { rows, unreadable } = readAmbiqtRows(options.ambiqtFile);
  const missingFile = path.join(options.spiderDirectory, "MISSING_BLOBS.txt");
  const missing = missingTables(existsSync(missingFile) ? readFileSync(missingFile, "utf8") : "");
  const wanted = rows.filter((row) => types.includes(row.change.type));
  const { ordered, skipped } = await orderAmbiqtRows(wanted, { seed: options.seed, missing });
  const dropped: SkippedRow[] = [...skipped];
  const questions: MaterialisedQuestion[] = [];
  const kept = new Map<string, number>();
  const width = String(options.perType === undefined ? ordered.length : options.perType * types.length).length;
  const full = (row: AmbiqtRow) => options.perType !== undefined && (kept.get(row.change.type) ?? 0) >= options.perType;
  const asked = new Set<string>();
  for (const row of ordered) {
    if (full(row)) continue;
    // A sample asks each question once: AmbiQT repeats a question under other types (and answerers remember).
    if (options.perType !== undefined && asked.has(row.question.trim().toLowerCase())) continue;
    if (options.perType !== undefined && types.every((type) => (kept.get(type) ?? 0) >= options.perType!)) break;
    const database = `${options.prefix}_${String(questions.length + 1).padStart(Math.max(2, width), "0")}`;
    const outcome = await materialiseQuestion({
      row,
      serverUrl: options.serverUrl,
      database,
      spiderDirectory: options.spiderDirectory,
      seed: options.seed,
    });
    if (outcome.ok) {
      questions.push(outcome.question);
      asked.add(row.question.trim().toLowerCase());
      kept.set(row.change.type, (kept.get(row.change.type) ?? 0) + 1);
      log(
        `kept ${outcome.question.id} [${row.change.type}] in ${database}: ${outcome.question.ambiqt.change.split("; stored as")[0]}`,
      );
    } else {
      dropped.push({ line: outcome.line, type: outcome.type, reason: outcome.reason });
      log(`dropped line ${outcome.line} [${outcome.type}]: ${outcome.reason}`);
    }
  }
  return {
    questions,
    dropped,
    unreadable,
    perType: Object.fromEntries(types.map((type) => [type, kept.get(type) ?? 0])),
  };
}

/** Drops every database `<prefix>_<number>` on the server (what earlier runs materialised); returns their names. */
export async function dropMaterialisedDatabases(serverUrl: string, prefix: string): Promise<string[]> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  let names: string[];
  try {
    const result = await admin.query<{ name: string }>(
      "SELECT datname AS name FROM pg_catalog.pg_database WHERE datname ~ $1 ORDER BY datname",
      [`^${prefix}_[0-9]+$`],
    );
    names = result.rows.map((row) => row.name);
  } finally {
    await admin.end();
  }
  for (const name of names) await dropDatabase(serverUrl, name);
  return names;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      out: { type: "string" },
      "per-type": { type: "string" },
      all: { type: "boolean", default: false },
      seed: { type: "string", default: "26" },
      types: { type: "string", default: "C,T,J,P" },
      server: { type: "string", default: "postgresql://postgres@127.0.0.1:5432/postgres" },
      prefix: { type: "string", default: "nlq_ambiqt" },
      ambiqt: {
        type: "string",
        default: path.join(import.meta.dirname, "../../../shared/data/ambiqt/ambiqt-dev.jsonl"),
      },
      spider: { type: "string", default: path.join(import.meta.dirname, "../../../shared/data/spider-warehouse") },
      report: { type: "string" },
      drop: { type: "boolean", default: false },
    },
  });
  if (!/^[a-z_][a-z0-9_]{0,50}$/.test(values.prefix)) throw new Error("--prefix: lower-case letters, digits, _ only");
  if (values.drop) {
    const dropped = await dropMaterialisedDatabases(values.server, values.prefix);
    process.stdout.write(`dropped ${dropped.length} databases named ${values.prefix}_<number>\n`);
    return;
  }
  if (values.out === undefined) throw new Error("--out <questions.jsonl> is required");
  if (values.all === (values["per-type"] !== undefined)) throw new Error("pass exactly one of --per-type N and --all");
  for (const file of [values.ambiqt, values.spider])
    if (!existsSync(file)) {
      process.stderr.write(`skipped: ${file} is absent\n`);
      return;
    }
  const report = await loadAmbiqt({
    ambiqtFile: values.ambiqt,
    spiderDirectory: values.spider,
    serverUrl: values.server,
    ...(values.all ? {} : { perType: Number(values["per-type"]) }),
    seed: Number(values.seed),
    types: values.types.split(",").map((type) => type.trim().toUpperCase()),
    prefix: values.prefix,
    log: (line) => process.stderr.write(`${line}\n`),
  });
  writeFileSync(values.out, report.questions.map((question) => `${JSON.stringify(question)}\n`).join(""));
  if (values.report !== undefined) writeFileSync(values.report, `${JSON.stringify(report, null, 2)}\n`);
  const kept = Object.entries(report.perType)
    .map(([type, count]) => `${type} ${count}`)
    .join(", ");
  process.stdout.write(
    `${report.questions.length} questions written to ${values.out} (${kept}); ${report.dropped.length} examples dropped, ${report.unreadable.length} unreadable\n`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await main();
