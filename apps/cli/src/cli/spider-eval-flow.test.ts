import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadServiceSettings, openMetadataStore } from "@nlq/adapters";
import { createTestDatabase, type TestDatabase } from "@nlq/adapters/testing";
import {
  createGoldScriptedModel,
  prepareWarehousePresetQuestions,
  runPresetBenchmark,
  summarizePresets,
  translateMysqlGold,
} from "@nlq/eval";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSpiderWarehouse } from "../../../../bench/spider-warehouse/load-spider-warehouse";
import { registerEvalCommand } from "./eval-command";
import { registerIndexCommand } from "./index-command";
import { runCommand } from "./run-command.test-helpers";

/**
 * Spider's train_queries.csv as an `nlq eval` input and the preset benchmark on the warehouse's live path: two Spider
 * databases loaded into a throwaway database (one schema each, as the warehouse loader loads all 157), six real rows
 * of train_queries.csv (MySQL gold: backticks, mixed-case names, GROUP BY, LIMIT, a JOIN without ON, and a gold that
 * PostgreSQL refuses because room_count is text there), then the index and CRUSH with a model scripted from gold.
 */
const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const dataDirectory = path.resolve(repositoryRoot, "../shared/data/spider-warehouse");
const hasData = existsSync(path.join(dataDirectory, "databases"));
if (!hasData) {
  console.warn(
    `spider-eval-flow.test.ts: skipped, the Spider warehouse data is not at ${dataDirectory} (../shared/data from the repository root)`,
  );
}

// Rows 234, 288, 252, 1306, 1342 and 1360 of train_queries.csv, verbatim.
const trainQueries = `database,question,sql
apartment_rentals,How many apartment bookings are there in total?,SELECT COUNT(*) FROM \`Apartment_Bookings\`
apartment_rentals,Show the booking status code and the corresponding number of bookings.,"SELECT \`booking_status_code\`, COUNT(*) FROM \`Apartment_Bookings\` GROUP BY \`booking_status_code\`"
apartment_rentals,"What is the average number of rooms of apartments with type code ""Studio""?",SELECT AVG(\`room_count\`) FROM \`Apartments\` WHERE \`apt_type_code\` = 'Studio'
college_3,How many courses are there in total?,SELECT COUNT(*) FROM \`Course\`
college_3,Find the name of the department that has the biggest number of students minored in?,SELECT \`t1\`.\`DName\` FROM \`Department\` AS \`t1\` JOIN \`Minor_in\` AS \`t2\` ON \`t1\`.\`DNO\` = \`t2\`.\`DNO\` GROUP BY \`t1\`.\`DName\` ORDER BY COUNT(*) DESC LIMIT 1
college_3,Find the student first and last names and grade points of all enrollments.,"SELECT \`t3\`.\`Fname\`, \`t3\`.\`LName\`, \`t2\`.\`gradepoint\` FROM \`Enrolled_in\` AS \`t1\` JOIN \`Gradeconversion\` AS \`t2\` JOIN \`Student\` AS \`t3\` ON \`t1\`.\`Grade\` = \`t2\`.\`lettergrade\` AND \`t1\`.\`StuID\` = \`t3\`.\`StuID\`"
`;

async function runFlowCommand(
  register: typeof registerEvalCommand | typeof registerIndexCommand,
  argumentsList: string[],
  extra: { environment: Record<string, string | undefined>; resolveModel?: unknown },
) {
  return runCommand(register, argumentsList, extra);
}

describe.skipIf(!hasData)("Spider train_queries.csv: nlq eval and the preset benchmark on the warehouse", () => {
  let database: TestDatabase;
  let home: string;
  let csv: string;

  beforeAll(async () => {
    database = await createTestDatabase("nlq_spider_eval");
    await loadSpiderWarehouse({ url: database.url, dataDirectory, only: ["apartment_rentals", "college_3"] });
    home = await mkdtemp(path.join(tmpdir(), "nlq-spider-eval-"));
    csv = path.join(home, "train_queries.csv");
    await writeFile(csv, trainQueries);
  });

  afterAll(async () => {
    await database?.drop();
    if (home) await rm(home, { recursive: true, force: true });
  });

  it("--candidates: every translated gold that runs scores 100% against itself; the one PostgreSQL refuses is counted apart", async () => {
    const result = await runFlowCommand(registerEvalCommand, ["eval", "--candidates", csv, "--url", database.url], {
      environment: {},
    });
    expect(result.exitCode, result.stderr).toBeFalsy();
    expect(result.stdout).toMatch(/^5 questions\n/);
    expect(result.stdout).toMatch(/source gold\s+\| 100\.0% \| 100\.0% \| 5 candidates, 0 errors/);
    expect(result.stdout).toContain("gold does not run (not scored): 1 question\n");
    expect(result.stdout).toContain(
      "train_queries-3 (not scored): function avg(character varying) does not exist (SQLSTATE 42883)",
    );
  });

  it("--questions: the engine answers in each question's schema (search_path = db_id) and is scored on the 5 golds that run", async () => {
    const model = createGoldScriptedModel(
      new Map(
        trainQueries
          .split("\n")
          .slice(1, -1)
          .map((line) => {
            const [, question, sql] = line.match(/^[a-z_0-9]+,("(?:[^"]|"")*"|[^,]*),(.*)$/)!;
            const gold = sql!.startsWith('"') ? sql!.slice(1, -1).replaceAll('""', '"') : sql!;
            const text = question!.startsWith('"') ? question!.slice(1, -1).replaceAll('""', '"') : question!;
            const translated = translateMysqlGold(gold);
            return [
              text,
              { sql: translated.ok ? translated.sql : gold, goldSchema: { tables: [], columns: new Map() } },
            ];
          }),
      ),
    );
    const result = await runFlowCommand(
      registerEvalCommand,
      ["eval", "--questions", csv, "--url", database.url, "--json", "--preset", "fast"],
      { environment: {}, resolveModel: () => model },
    );
    expect(result.exitCode, result.stderr).toBeFalsy();
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ questions: 5, ex: 1, failures: 0, model: { scripted: true } });
    expect(report.goldErrors).toHaveLength(1);
    expect(report.goldErrors[0]).toMatchObject({ id: "train_queries-3", scored: false });
  });

  it("bench presets on the indexed slice: CRUSH runs in the live path, max forms two clusters and asks the pairwise agent; nlq eval uses the index too", async () => {
    const environment = { NLQ_HOME: home };
    const indexed = await runFlowCommand(registerIndexCommand, ["index", "--url", database.url], { environment });
    expect(indexed.exitCode, indexed.stderr).toBeFalsy();
    const metadataStore = await openMetadataStore({ settings: loadServiceSettings(environment) });
    try {
      const warehouse = await prepareWarehousePresetQuestions({
        url: database.url,
        metadataStore,
        questionsFile: csv,
        count: 3,
      });
      // Every 2nd question; the 3rd row's gold does not run, so the 4th takes its place.
      expect(warehouse.questions.map((question) => question.schema)).toEqual([
        "apartment_rentals",
        "college_3",
        "college_3",
      ]);
      expect(warehouse).toMatchObject({ fileQuestions: 6, untranslated: 0, goldDoesNotRun: 1 });
      const results = await runPresetBenchmark({
        url: database.url,
        questions: warehouse.questions,
        presets: ["fast", "max"],
        metadataStore,
        // Two Spider databases are far below the default threshold (200 columns) of schema selection and CRUSH.
        environment: { NLQ_SCHEMA_SELECTION_MIN_COLUMNS: "0" },
        resolveModel: () => warehouse.model,
      });
      const [fast, max] = results;
      for (const question of max!.questions) {
        expect(question, question.error).toMatchObject({ ok: true, clusters: 2, selector: "pairwise" });
        expect(question.crush).toMatchObject({ budget: 40 });
        expect(question.crush!.fallbackReason).toBeUndefined();
        expect(question.crush!.columns).toBeGreaterThan(0);
        expect(question.callsByStep["hallucinate-schema"]).toBe(1);
        expect(question.callsByStep["select-candidate"]).toBe(2);
        expect(question.pairwise!.made).toBeLessThan(question.pairwise!.allPairs);
      }
      for (const question of fast!.questions) {
        expect(question).toMatchObject({ ok: true, clusters: 1 });
        expect(question.crush).toBeUndefined();
      }
      const [fastFigures, maxFigures] = summarizePresets(results);
      expect(fastFigures).toMatchObject({ crushQuestions: 0, answered: 3 });
      expect(maxFigures).toMatchObject({ crushQuestions: 3, crushFallbacks: 0, answered: 3, selectorCalls: 6 });
    } finally {
      await metadataStore.close();
    }

    // nlq eval --questions takes the same indexed path when NLQ_HOME holds the index: balanced then calls the
    // selection steps and CRUSH's hallucination besides its three generators (3 calls per question without the index).
    const store = await openMetadataStore({ settings: loadServiceSettings(environment) });
    let model: ReturnType<typeof createGoldScriptedModel>;
    try {
      ({ model } = await prepareWarehousePresetQuestions({
        url: database.url,
        metadataStore: store,
        questionsFile: csv,
        count: 6,
      }));
    } finally {
      await store.close();
    }
    const evaluated = await runFlowCommand(
      registerEvalCommand,
      ["eval", "--questions", csv, "--url", database.url, "--json", "--preset", "balanced"],
      { environment: { ...environment, NLQ_SCHEMA_SELECTION_MIN_COLUMNS: "0" }, resolveModel: () => model },
    );
    expect(evaluated.exitCode, evaluated.stderr).toBeFalsy();
    const report = JSON.parse(evaluated.stdout);
    expect(report).toMatchObject({ questions: 5, ex: 1, failures: 0 });
    expect(report.perQuestion.llmCalls).toBeGreaterThanOrEqual(8);
  }, 180_000);
});
