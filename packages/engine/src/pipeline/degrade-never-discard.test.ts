import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { createPgExecutor } from "@nlq/adapters";
import { createTestDatabase, type TestDatabase } from "@nlq/adapters/testing";
import { APICallError } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { GeneratorPlan } from "../config/presets";
import { loadSettings, type Settings } from "../config/settings";
import type { QueryExecutor } from "../database/query-executor";
import { createChessSchemaSelector } from "../schema-selection/chess-schema-selector";
import { mockTextResult, stepOf } from "../testing/mock-text-model";
import { answerQuestion } from "./answer-question";

// Issue 18 item 4, "degrade, never discard", through the whole pipeline on a real PostgreSQL with AI SDK mock models
// (no language model): work that already succeeded survives a later failure.

let database: TestDatabase;
let client: pg.Client;
let session: QueryExecutor;

beforeAll(async () => {
  database = await createTestDatabase(
    "nlq_degrade",
    `CREATE TABLE customers (id integer PRIMARY KEY, name text NOT NULL, country char(2));
     CREATE TABLE orders (id integer PRIMARY KEY, customer_id integer REFERENCES customers (id), total numeric);
     INSERT INTO customers VALUES (1, 'Ada', 'GB'), (2, 'Blaise', 'FR'), (3, 'Camille', 'FR');
     INSERT INTO orders VALUES (1, 1, 10), (2, 2, 20);`,
  );
});
afterAll(async () => {
  await database?.drop();
});
beforeEach(async () => {
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
  session = createPgExecutor(client);
});
afterEach(async () => {
  await client.end();
});

/** A mock model answering each step with `answers[step](call)` (a JSON value, or a promise of one). */
function modelAnswering(answers: Record<string, (call: LanguageModelV3CallOptions) => unknown>) {
  const steps: string[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (call) => {
      const step = stepOf(call);
      steps.push(step);
      const answer = answers[step];
      if (!answer) throw new Error(`no answer for step ${step}`);
      return mockTextResult(JSON.stringify(await answer(call)));
    },
  });
  return { steps, resolveModel: () => ({ model, id: "mock:model", scripted: false }) };
}

const twoGenerators: GeneratorPlan[] = [
  { generator: "one-shot", samples: 1, temperature: 0 },
  { generator: "divide-and-conquer", samples: 1, temperature: 0 },
];

function settingsWith(overrides: Partial<Settings>): Settings {
  return { ...loadSettings({ NLQ_PRESET: "balanced" }), summarizeAnswer: false, ...overrides };
}

describe("degrade, never discard", () => {
  it("(a) keeps the candidates that ran when a later call crosses the question's deadline", async () => {
    const { resolveModel } = modelAnswering({
      "generate-candidate": () => ({ reasoning: "count", sql: "SELECT count(*) AS n FROM customers" }),
      // The second generator's call is still running when the deadline passes.
      "generate-divide-and-conquer": (call) =>
        new Promise((_, reject) => {
          call.abortSignal?.addEventListener("abort", () => reject(call.abortSignal?.reason));
        }),
    });
    const answer = await answerQuestion({
      question: "How many customers are there?",
      session,
      settings: settingsWith({ generators: twoGenerators, concurrency: 1, deadlineMilliseconds: 1500 }),
      resolveModel,
    });
    expect(answer.sql).toBe("SELECT count(*) AS n FROM customers");
    expect(answer.result.rows).toEqual([["3"]]);
    expect(answer.candidates).toEqual([
      expect.objectContaining({ generator: "one-shot", ok: true }),
      expect.objectContaining({ generator: "divide-and-conquer", ok: false, error: expect.stringMatching(/deadline/) }),
    ]);
    // One of the two candidates written ran: that is the agreement behind the answer.
    expect(answer.confidence).toBe(0.5);
  });

  it("(a) keeps the candidates when the selection's calls cross the deadline: self-consistency chooses", async () => {
    const hang = (call: LanguageModelV3CallOptions) =>
      new Promise((_, reject) => {
        call.abortSignal?.addEventListener("abort", () => reject(call.abortSignal?.reason));
      });
    const { resolveModel } = modelAnswering({
      "generate-candidate": () => ({ reasoning: "", sql: "SELECT count(*) AS n FROM customers" }),
      "generate-divide-and-conquer": () => ({
        reasoning: "",
        sql: "SELECT count(*) AS n FROM customers WHERE country = 'FR'",
      }),
      "select-candidate": hang,
    });
    const answer = await answerQuestion({
      question: "How many customers are there?",
      session,
      settings: settingsWith({ generators: twoGenerators, selector: "pairwise", deadlineMilliseconds: 1500 }),
      resolveModel,
    });
    expect(answer.selection).toMatchObject({ selector: "self-consistency", clusters: 2, executed: 2 });
    expect(answer.selection.basis).toMatch(/^pairwise failed \(.*deadline.*\); /);
    expect(answer.sql).toBe("SELECT count(*) AS n FROM customers");
  });

  it("(b) keeps the wider schema when select_tables and select_columns are refused, and answers", async () => {
    const refused = () => {
      throw new APICallError({
        message: "Invalid schema for response_format 'response'",
        url: "http://127.0.0.1/v1/responses",
        requestBodyValues: {},
        statusCode: 400,
        isRetryable: false,
      });
    };
    const { steps, resolveModel } = modelAnswering({
      "filter-column": () => "not the requested object",
      "select-tables": refused,
      "select-columns": refused,
      "generate-candidate": () => ({ reasoning: "count", sql: "SELECT count(*) AS n FROM orders" }),
    });
    const answer = await answerQuestion({
      question: "How many orders are there?",
      session,
      settings: settingsWith({
        generators: [{ generator: "one-shot", samples: 1, temperature: 0 }],
        schemaSelection: { extractKeywords: false, filterColumn: true, selectTables: true, selectColumns: true },
      }),
      schemaSelector: createChessSchemaSelector(),
      resolveModel,
    });
    // filter_column runs beside select_tables (one round), so their order is not fixed; select_columns follows both.
    expect([...steps.slice(0, 2)].sort()).toEqual(["filter-column", "select-tables"]);
    expect(steps.slice(2)).toEqual(["select-columns", "find-readings", "generate-candidate"]);
    expect(answer.result.rows).toEqual([["2"]]);
  });

  it("(c) keeps a valid empty result when the fixer fails", async () => {
    const { resolveModel } = modelAnswering({
      "generate-candidate": () => ({ reasoning: "none", sql: "SELECT name FROM customers WHERE country = 'DE'" }),
      "fix-candidate": () => "the fixer's reply is not JSON",
    });
    const answer = await answerQuestion({
      question: "Which customers live in Germany?",
      session,
      settings: settingsWith({
        generators: [{ generator: "one-shot", samples: 1, temperature: 0 }],
        maxFixAttempts: 3,
      }),
      resolveModel,
    });
    expect(answer.sql).toBe("SELECT name FROM customers WHERE country = 'DE'");
    expect(answer.result.rows).toEqual([]);
    expect(answer.candidates).toEqual([expect.objectContaining({ ok: true, rows: 0 })]);
  });

  it("(d) does not count unrelated empty results as agreement: no confidence 1.00 for them", async () => {
    const { resolveModel } = modelAnswering({
      "generate-candidate": () => ({ reasoning: "", sql: "SELECT name FROM customers WHERE country = 'DE'" }),
      "generate-divide-and-conquer": () => ({ reasoning: "", sql: "SELECT id FROM orders WHERE total > 100" }),
      "generate-query-plan": () => ({ reasoning: "", sql: "SELECT name FROM customers WHERE name = 'Zoe'" }),
    });
    const answer = await answerQuestion({
      question: "Which customers live in Germany?",
      session,
      settings: settingsWith({
        generators: [...twoGenerators, { generator: "query-plan", samples: 1, temperature: 0 }],
        maxFixAttempts: 0,
        selector: "self-consistency",
      }),
      resolveModel,
    });
    expect(answer.selection).toMatchObject({ clusters: 3, selector: "self-consistency" });
    expect(answer.sql).toBe("SELECT name FROM customers WHERE country = 'DE'");
    expect(answer.confidence).toBeCloseTo(1 / 3);
  });
});
