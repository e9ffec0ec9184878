import { createPgExecutor } from "@nlq/adapters";
import { createTestDatabase, type TestDatabase } from "@nlq/adapters/testing";
import { loadSettings } from "@nlq/engine";
import { mockTextModel } from "@nlq/engine/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PoolQuestion } from "./candidate-pool";
import { evaluateCandidatePool } from "./evaluate-candidate-pool";
import { createEvaluationExecutor } from "./execute-for-evaluation";
import { createPoolCatalogLoader } from "./pool-catalog";
import { summarizePool } from "./pool-report";

let database: TestDatabase;
let client: pg.Client;

beforeAll(async () => {
  database = await createTestDatabase(
    "nlq_eval_pool",
    `CREATE SCHEMA shop;
     CREATE TABLE shop.items (id integer PRIMARY KEY, name text, price numeric(6,2));
     INSERT INTO shop.items VALUES (1, 'Lamp', 12.50), (2, 'Mug', 4.00), (3, 'Rug', 30.00);`,
  );
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
});
afterAll(async () => {
  await client?.end();
  await database?.drop();
});

const execute = () =>
  createEvaluationExecutor({ session: createPgExecutor(client), statementTimeoutMilliseconds: 5000 });

const question = (id: string, gold: string, candidates: Array<[string, string]>): PoolQuestion => ({
  id,
  question: id,
  schema: "shop",
  gold,
  candidates: candidates.map(([source, sql]) => ({ source, sql })),
});

describe("evaluateCandidatePool", () => {
  it("sets search_path to the question's schema, read-only, and scores gold as a candidate 1.0", async () => {
    const pool = [
      question("cheap", "SELECT name FROM items WHERE price < 20 ORDER BY name", [
        ["gold", "SELECT name FROM items WHERE price < 20 ORDER BY name;"],
      ]),
      question("count", "SELECT count(*) FROM items", [["gold", "SELECT count(*) FROM items"]]),
    ];
    const report = summarizePool(await evaluateCandidatePool({ questions: pool, execute: execute() }));
    expect(report.questions).toBe(2);
    expect(report.sources.gold).toEqual({ ex: 1, setEx: 1, candidates: 2, errors: 0 });
    expect(report.selectors.oracle.ex).toBe(1);
    expect(report.selectors["self-consistency"].ex).toBe(1);
  });

  it("scores sources, oracle, the exact random expectation and self-consistency", async () => {
    const pool = [
      // Gold orders at the top level: the reversed order is wrong for EX, right as a set.
      question("ordered", "SELECT name FROM items ORDER BY price", [
        ["a", "SELECT name FROM items ORDER BY price DESC"],
        ["b", "SELECT name FROM items ORDER BY price"],
        ["c", "SELECT name FROM items ORDER BY price DESC"],
      ]),
      // defog notation: either column is accepted.
      question("either", "SELECT {id, name} FROM items WHERE price > 10", [
        ["a", "SELECT name FROM items WHERE price > 10"],
        ["b", "SELECT nosuchcolumn FROM items"],
        ["c", "SELECT name FROM items"],
      ]),
    ];
    const outcomes = await evaluateCandidatePool({ questions: pool, execute: execute() });
    expect(outcomes[1]!.candidates[1]!.error).toMatch(/42703/);
    const report = summarizePool(outcomes);
    expect(report.sources.a).toMatchObject({ ex: 0.5, setEx: 1 });
    expect(report.sources.b).toMatchObject({ ex: 0.5, errors: 1 });
    expect(report.sources.c).toMatchObject({ ex: 0, setEx: 0.5 });
    expect(report.selectors.oracle.ex).toBe(1);
    expect(report.selectors.random.ex).toBeCloseTo((1 / 3 + 1 / 3) / 2, 10);
    // "ordered": a and c agree (2 of 3) and are wrong; "either": three singletons, the first (a) wins the tie.
    expect(outcomes.map((outcome) => outcome.clusters)).toEqual([2, 2]);
    expect(report.selectors["self-consistency"].ex).toBe(0.5);
  });

  it("reports a failing gold and leaves its question out of the figures", async () => {
    const pool = [
      question("broken", "SELECT missing FROM items", [["a", "SELECT 1"]]),
      question("fine", "SELECT 1", [["a", "SELECT 1"]]),
    ];
    const report = summarizePool(await evaluateCandidatePool({ questions: pool, execute: execute() }));
    expect(report.questions).toBe(1);
    expect(report.sources.a).toMatchObject({ ex: 1, candidates: 1 });
    expect(report.goldErrors).toEqual([
      expect.objectContaining({ id: "broken", scored: false, error: expect.stringMatching(/42703/) }),
    ]);
  });

  it("runs candidates read-only: a write fails and changes nothing", async () => {
    const pool = [question("write", "SELECT count(*) FROM items", [["a", "DELETE FROM items RETURNING 1"]])];
    const outcomes = await evaluateCandidatePool({ questions: pool, execute: execute() });
    expect(outcomes[0]!.candidates[0]!.error).toMatch(/25006/);
    const count = await client.query("SELECT count(*) AS n FROM shop.items");
    expect(count.rows[0].n).toBe("3");
  });

  it("validates candidates like every other path: a side-effect function is refused before it runs", async () => {
    const pool = [
      question("lock", "SELECT count(*) FROM items", [["a", "SELECT pg_advisory_lock(42), count(*) FROM items"]]),
    ];
    const outcomes = await evaluateCandidatePool({ questions: pool, execute: execute() });
    expect(outcomes[0]!.candidates[0]!.error).toMatch(/pg_advisory_lock.*25006/s);
    const locks = await client.query("SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory'");
    expect(locks.rows[0].n).toBe("0");
  });

  it("runs the pairwise agent and the unit tester on the engine's clusters, with their calls and tokens", async () => {
    const cheapest = "SELECT name FROM items ORDER BY price LIMIT 1";
    const dearest = "SELECT name FROM items ORDER BY price DESC LIMIT 1";
    const pool = [
      // Self-consistency picks the two agreeing (wrong) candidates; a model that reads the SQL picks the right one.
      question("cheapest", cheapest, [
        ["a", dearest],
        ["b", "select name from items order by price desc limit 1 -- again"],
        ["c", cheapest],
        ["d", "SELECT name FROM items WHERE price > 100"],
      ]),
      // One cluster: no call.
      question("count", "SELECT count(*) FROM items", [["a", "SELECT count(*) FROM items"]]),
    ];
    const prompts: Array<{ step: string; prompt: string }> = [];
    const resolveModel = (step: string) => ({
      model: mockTextModel(
        (call) => {
          const prompt = JSON.stringify(call.prompt);
          prompts.push({ step, prompt });
          if (step === "select-candidate") {
            const b = prompt.slice(prompt.indexOf("Candidate B"));
            return JSON.stringify({ answer: b.includes("ORDER BY price LIMIT 1") ? "B" : "A" });
          }
          if (step === "generate-unit-tests")
            return JSON.stringify({
              reasoning: "",
              unitTests: ["The answer SQL query should sort by price ascending."],
            });
          // Clusters: [dearest ×2], [cheapest], [empty]: only the ascending one passes.
          return JSON.stringify({ reasoning: "", verdicts: ["Failed", "Passed", "Failed"] });
        },
        { input: 50, output: 5 },
      ),
      id: "mock:selector",
      scripted: false,
    });
    const outcomes = await evaluateCandidatePool({
      questions: pool,
      execute: execute(),
      modelSelection: {
        selectors: ["pairwise", "unit-tests"],
        settings: loadSettings({}),
        resolveModel,
        loadCatalog: createPoolCatalogLoader(createPgExecutor(client)),
      },
    });
    expect(outcomes[0]!.clusters).toBe(3);
    expect(outcomes[0]!.selections["self-consistency"]).toMatchObject({ choice: 0, confidence: 0.5 });
    expect(outcomes[0]!.selections.pairwise).toMatchObject({ choice: 2, confidence: 1 });
    expect(outcomes[0]!.selections["unit-tests"]).toMatchObject({ choice: 2, confidence: 1 });
    expect(outcomes[0]!.pairwiseCalls).toEqual({ made: 6, allPairs: 12, differingPairs: 10 });
    // The union schema comes from the database's own catalog of the question's schema.
    const pairwisePrompt = prompts.find((each) => each.step === "select-candidate")!.prompt;
    expect(pairwisePrompt).toContain("CREATE TABLE shop.items");
    expect(pairwisePrompt).toContain("price numeric(6,2)");
    expect(pairwisePrompt).not.toContain("id integer");
    const report = summarizePool(outcomes, { id: "mock:selector", scripted: false });
    expect(report.selectors["self-consistency"].ex).toBe(0.5);
    expect(report.selectors.pairwise).toEqual({
      ex: 1,
      setEx: 1,
      llmCalls: 6,
      inputTokens: 300,
      outputTokens: 30,
      failures: 0,
      meanConfidence: 1,
    });
    expect(report.selectors["unit-tests"]).toMatchObject({ ex: 1, llmCalls: 2, inputTokens: 100, outputTokens: 10 });
    expect(report.pairwiseCalls).toEqual({ made: 6, allPairs: 12, differingPairs: 10 });
    expect(prompts).toHaveLength(8);
  });

  it("reports a selector whose model answers badly as a failure, counted wrong", async () => {
    const pool = [
      question("two", "SELECT 1", [
        ["a", "SELECT 1"],
        ["b", "SELECT 2"],
      ]),
    ];
    const outcomes = await evaluateCandidatePool({
      questions: pool,
      execute: execute(),
      modelSelection: {
        selectors: ["pairwise"],
        settings: loadSettings({}),
        resolveModel: () => ({ model: mockTextModel("not json"), id: "mock:bad", scripted: false }),
        loadCatalog: createPoolCatalogLoader(createPgExecutor(client)),
      },
    });
    expect(outcomes[0]!.selections.pairwise!.error).toMatch(/select-candidate/);
    const report = summarizePool(outcomes, { id: "mock:bad", scripted: false });
    // Both comparisons (A/B and B/A) reached the model and came back unreadable: they cost calls and count.
    expect(report.selectors.pairwise).toMatchObject({ ex: 0, failures: 1, llmCalls: 2 });
    expect(report.selectors["self-consistency"].ex).toBe(1);
  });
});
