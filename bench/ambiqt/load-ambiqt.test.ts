import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createPgExecutor, createQuestionAnswerer } from "@nlq/adapters";
import { testServerUrl } from "@nlq/adapters/testing";
import { compareResults, loadSettings, loadSqlParser } from "@nlq/engine";
import { mockTextModel } from "@nlq/engine/testing";
import { createEvaluationExecutor, evaluateQuestions, summarizeQuestions } from "@nlq/eval";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LoadAmbiqtReport, loadAmbiqt } from "./load-ambiqt";
import { dropDatabase } from "./materialise-question";

// The AmbiQT loader on real PostgreSQL: two examples of each type from AmbiQT's own file (over small Spider
// databases), one example whose readings cannot differ and one unreadable line. Skipped without ../shared/data.

const shared = process.env.NLQ_SHARED_DATA ?? path.resolve(import.meta.dirname, "../../../shared/data");
const ambiqtFile = path.join(shared, "ambiqt/ambiqt-dev.jsonl");
const spiderDirectory = process.env.NLQ_SPIDER_WAREHOUSE_DIR ?? path.join(shared, "spider-warehouse");
const hasData = existsSync(ambiqtFile) && existsSync(path.join(spiderDirectory, "databases"));
if (!hasData) console.warn(`AmbiQT or Spider warehouse data not found under ${shared}: AmbiQT loader tests skipped`);

const small = new Set(["concert_singer", "pets_1", "singer", "poker_player", "employee_hire_evaluation", "orchestra"]);
const prefix = `nlq_test_ambiqt_${randomBytes(3).toString("hex")}`;
const directory = mkdtempSync(path.join(tmpdir(), "nlq-ambiqt-"));
let report: LoadAmbiqtReport;
let sameReadingsLine = 0;
const sampleFile = path.join(directory, "ambiqt-sample.jsonl");

function databaseUrl(database: string): string {
  const url = new URL(testServerUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function withClient<T>(database: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl(database) });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  if (!hasData) return;
  const lines = readFileSync(ambiqtFile, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "");
  const chosen: string[] = [];
  for (const type of ["C", "T", "J", "P"]) {
    const examples = lines.filter((line) => {
      const row = JSON.parse(line) as { type: string; db_id: string; query1: string };
      return row.type === type && small.has(row.db_id) && !/\b(load|show|generated)\b/.test(row.query1);
    });
    chosen.push(...examples.slice(0, 2));
  }
  // A C example whose two readings read neither synonym: no drift can make them differ.
  const same = JSON.parse(chosen[0]!) as Record<string, unknown>;
  const table = (same.schema_change as { table: string }).table;
  chosen.push(
    JSON.stringify({ ...same, query1: `select count(*) from ${table}`, query2: `select count(*) from ${table}` }),
  );
  sameReadingsLine = chosen.length;
  chosen.push("{not json");
  writeFileSync(sampleFile, `${chosen.join("\n")}\n`);
  report = await loadAmbiqt({ ambiqtFile: sampleFile, spiderDirectory, serverUrl: testServerUrl, seed: 26, prefix });
}, 600_000);

afterAll(async () => {
  for (const question of report?.questions ?? []) await dropDatabase(testServerUrl, question.database);
  rmSync(directory, { recursive: true, force: true });
});

describe.skipIf(!hasData)("loadAmbiqt on real PostgreSQL", () => {
  it("materialises examples of all four types, each in its own database, and reports the others", () => {
    expect(report.perType.C).toBeGreaterThanOrEqual(2);
    expect(report.perType.T).toBeGreaterThanOrEqual(2);
    expect(report.perType.J).toBeGreaterThanOrEqual(2);
    expect(report.perType.P).toBeGreaterThanOrEqual(2);
    expect(new Set(report.questions.map((question) => question.database)).size).toBe(report.questions.length);
    expect(report.unreadable).toEqual([{ line: sameReadingsLine + 1, reason: "not JSON" }]);
    const same = report.dropped.find((dropped) => dropped.line === sameReadingsLine);
    expect(same?.reason).toMatch(/both readings return the same rows after 5 attempts/);
  });

  it("writes question lines nlq eval reads: both golds, the schema and the database", () => {
    for (const question of report.questions) {
      expect(question.gold).toHaveLength(2);
      expect(question.category).toMatch(/^[CTJP]$/);
      expect(question.schema).toBe(question.ambiqt.spiderDatabase.toLowerCase());
      expect(question.database.startsWith(`${prefix}_`)).toBe(true);
    }
  });

  it("leaves both readings running, as nlq eval runs gold, with different rows", async () => {
    await loadSqlParser();
    for (const question of report.questions) {
      await withClient(question.database, async (client) => {
        const execute = createEvaluationExecutor({ session: createPgExecutor(client) });
        const [first, second] = [
          await execute(question.gold[0], question.schema),
          await execute(question.gold[1], question.schema),
        ];
        expect(first.ok && second.ok, question.id).toBe(true);
        if (first.ok && second.ok) expect(compareResults(first.result, second.result).equal, question.id).toBe(false);
      });
    }
  });

  it("builds the schema each type describes, with values that drifted but no marker", async () => {
    for (const question of report.questions) {
      const source = readFileSync(sampleFile, "utf8").split("\n")[question.ambiqt.line - 1];
      await withClient(question.database, async (client) => {
        const tables = async () =>
          (
            await client.query<{ name: string }>("SELECT tablename AS name FROM pg_tables WHERE schemaname = $1", [
              question.schema,
            ])
          ).rows.map((row) => row.name);
        const row = JSON.parse(source ?? "{}") as {
          schema_change?: { table: string; column?: string; replaced_by: [string, string] };
          split_map?: Record<string, string>;
          new_table_name?: string;
        };
        if (question.category === "C") {
          const {
            table,
            column,
            replaced_by: [first, second],
          } = row.schema_change!;
          const values = await client.query<{ same: string; differ: string }>(
            `SELECT count(*) FILTER (WHERE "${first}"::text IS NOT DISTINCT FROM "${second}"::text) AS same,
                    count(*) FILTER (WHERE "${first}"::text IS DISTINCT FROM "${second}"::text) AS differ
               FROM "${question.schema}"."${table}"`,
          );
          expect(Number(values.rows[0]!.differ), question.id).toBeGreaterThan(0);
          expect(Number(values.rows[0]!.same), question.id).toBeGreaterThanOrEqual(Number(values.rows[0]!.differ));
          const columns = await client.query(
            "SELECT 1 FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 AND column_name = $3",
            [question.schema, table, column],
          );
          expect(columns.rowCount, `${question.id}: ${column} replaced`).toBe(0);
        } else if (question.category === "T") {
          const { table, replaced_by: copies } = row.schema_change!;
          expect(await tables()).toEqual(expect.arrayContaining(copies));
          expect(await tables()).not.toContain(table);
          const keys = await client.query<{ table: string }>(
            `SELECT c.relname AS table FROM pg_index x JOIN pg_class c ON c.oid = x.indrelid
              JOIN pg_namespace n ON n.oid = c.relnamespace WHERE x.indisprimary AND n.nspname = $1 AND c.relname = ANY ($2)`,
            [question.schema, copies],
          );
          expect(keys.rows.map((key) => key.table).sort(), `${question.id}: both copies keyed`).toEqual(
            [...copies].sort(),
          );
        } else if (question.category === "J") {
          const [[table, column]] = Object.entries(row.split_map!) as [[string, string]];
          expect(await tables()).toEqual(expect.arrayContaining([table, `${table}_${column}`]));
        } else {
          expect(await tables()).toContain(row.new_table_name);
        }
      });
    }
  });

  it("lets nlq eval find both readings when the engine's candidates are the two readings", async () => {
    // A mock model (no language model): the one-shot and divide-and-conquer generators answer reading 1, the query-plan
    // generator reading 2, so every answer carries both as interpretations — through the engine's validation,
    // execution and clustering on the materialised database, and nlq eval's scoring.
    // AmbiQT asks one question under several types: the mock answers the question being asked (questions go one by one).
    const steps = ["generate-candidate", "generate-divide-and-conquer", "generate-query-plan"];
    let asked: readonly [string, string] | undefined;
    const model = mockTextModel((call) => {
      const step = steps.indexOf((call.providerOptions?.nlq as { step?: string } | undefined)?.step ?? "");
      if (asked === undefined || step === -1) return "{}";
      return JSON.stringify({ reasoning: "mock", sql: asked[step === 2 ? 1 : 0] });
    });
    const clients: pg.Client[] = [];
    const questions = report.questions.map((question) => ({
      ...question,
      gold: question.gold[0],
      readings: question.gold,
    }));
    try {
      const outcomes = await evaluateQuestions({
        questions,
        session: createPgExecutor(new pg.Client()),
        execute: async () => ({ ok: false, error: "every question names its database" }),
        settings: loadSettings({ NLQ_PRESET: "balanced" }),
        resolveModel: () => ({ model, id: "mock:readings", scripted: true }),
        targetFor: async (question) => {
          asked = [question.readings![0]!, question.readings![1]!];
          const client = new pg.Client({ connectionString: databaseUrl(question.database!) });
          await client.connect();
          clients.push(client);
          const session = createPgExecutor(client);
          return { session, execute: createEvaluationExecutor({ session }), answerer: createQuestionAnswerer({}) };
        },
      });
      const summary = summarizeQuestions(outcomes, { id: "mock:readings", scripted: true });
      const figures = summary.readings.several;
      expect(figures).toMatchObject({ questions: questions.length, bothFound: questions.length, needsChoice: 0 });
    } finally {
      for (const client of clients) await client.end();
    }
  }, 300_000);

  it("drops the databases of examples it did not keep", async () => {
    const kept = new Set(report.questions.map((question) => question.database));
    const databases = await withClient(
      "postgres",
      async (client) =>
        (
          await client.query<{ name: string }>("SELECT datname AS name FROM pg_database WHERE datname LIKE $1", [
            `${prefix}%`,
          ])
        ).rows,
    );
    expect(databases.map((database) => database.name).sort()).toEqual([...kept].sort());
  });
});
