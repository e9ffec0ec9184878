import { randomBytes } from "node:crypto";
import { createPgExecutor } from "@nlq/adapters";
import { createTestDatabase, dropTestRole, type TestDatabase } from "@nlq/adapters/testing";
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadSettings } from "../config/settings";
import type { QueryLogEntry } from "../contract/answer";
import type { PipelineEvent } from "../contract/events";
import type { QueryExecutor } from "../database/query-executor";
import { CancelledError } from "../errors/cancelled-error";
import { DatabaseError, SqlValidationError } from "../errors/database-errors";
import { ModelConfigurationError } from "../errors/model-errors";
import { UnanswerableQuestionError } from "../errors/question-errors";
import { mockTextModel } from "../testing/mock-text-model";
import { answerQuestion } from "./answer-question";

const fixture = "packages/engine/src/pipeline/fixtures/answer-question-model.json";
// One one-shot candidate (the `fast` preset): these tests follow one candidate through the stages; the composition of
// several generators and selectors is tested in answer-question-presets.test.ts.
const settings = loadSettings({ NLQ_MODEL: `scripted:${fixture}`, NLQ_PRESET: "fast" });
const role = `nlq_pipeline_reader_${randomBytes(4).toString("hex")}`;
let database: TestDatabase;
let client: pg.Client;
let session: QueryExecutor;

beforeAll(async () => {
  database = await createTestDatabase(
    "nlq_pipeline",
    `CREATE TABLE customers (id integer PRIMARY KEY, name text NOT NULL, country char(2), secret text);
     CREATE TABLE orders (id integer PRIMARY KEY, customer_id integer REFERENCES customers (id), total numeric(10,2));
     INSERT INTO customers VALUES (1, 'Ada', 'GB', 's1'), (2, 'Blaise', 'FR', 's2'), (3, 'Camille', 'FR', 's3');
     INSERT INTO orders VALUES (1, 1, 10.50), (2, 2, 20.00), (3, 2, 5.25);
     CREATE ROLE ${role} LOGIN;
     GRANT SELECT (id, name, country) ON customers TO ${role};
     GRANT SELECT ON orders TO ${role};`,
  );
});
afterAll(async () => {
  await database?.drop();
  await dropTestRole(role);
});
beforeEach(async () => {
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
  session = createPgExecutor(client);
});
afterEach(async () => {
  await client.end();
});

function collect() {
  const events: PipelineEvent[] = [];
  const entries: QueryLogEntry[] = [];
  return {
    events,
    entries,
    onEvent: (event: PipelineEvent) => events.push(event),
    queryLog: { record: async (entry: QueryLogEntry) => void entries.push(entry) },
  };
}

describe("answerQuestion", () => {
  it("answers with rows, events in order, model label and a query-log entry", async () => {
    const trace = collect();
    const answer = await answerQuestion({ question: "how many customers are there", session, settings, ...trace });
    expect(answer.sql).toBe("SELECT count(*) AS customers FROM customers");
    expect(answer.result.rows).toEqual([["3"]]);
    expect(answer.result.fields.map((field) => field.name)).toEqual(["customers"]);
    expect(answer).toMatchObject({
      truncated: false,
      model: { id: `scripted:${fixture}`, scripted: true },
      selection: { selector: "single", candidates: 1, executed: 1, clusters: 1, chosenCluster: 0 },
    });
    // One candidate: nothing was compared, so no confidence figure.
    expect(answer.confidence).toBeUndefined();
    expect(answer.explanation).toBe("Count the rows of customers.");
    expect(trace.events.map((event) => event.type)).toEqual([
      "pipeline-start",
      "catalog-start",
      "catalog-end",
      "candidate-start",
      "llm-call-start",
      "llm-call-end",
      "candidate-end",
      "selection-start",
      "selection-end",
      "pipeline-end",
    ]);
    expect(trace.events).toContainEqual({ type: "llm-call-start", step: "generate-candidate" });
    expect(trace.events).toContainEqual({ type: "selection-start", candidates: 1, clusters: 1, selector: "single" });
    expect(trace.events.find((event) => event.type === "catalog-end")).toEqual({
      type: "catalog-end",
      tables: 2,
      columns: 7,
      source: "introspection",
    });
    expect(answer.calls).toEqual([expect.objectContaining({ step: "generate-candidate", scripted: true })]);
    expect(trace.entries).toEqual([
      expect.objectContaining({ ok: true, sql: answer.sql, rows: 1, scripted: true, origin: "cli", confidence: null }),
    ]);
  });

  it("fixes a failing candidate with the database error", async () => {
    const trace = collect();
    const answer = await answerQuestion({ question: "Which customers live in France?", session, settings, ...trace });
    expect(answer.sql).toBe("SELECT name FROM customers WHERE country = 'FR' ORDER BY name");
    expect(answer.result.rows).toEqual([["Blaise"], ["Camille"]]);
    expect(answer.candidates).toEqual([
      { generator: "one-shot", sample: 0, sql: answer.sql, revisions: 1, ok: true, rows: 2, cluster: 0 },
    ]);
    const fixStart = trace.events.find((event) => event.type === "fix-start");
    expect(fixStart).toEqual({
      type: "fix-start",
      candidate: 0,
      attempt: 1,
      reason: expect.stringMatching(/^42P01: relation "customer" does not exist/),
    });
    expect(answer.calls.map((call) => call.step)).toEqual(["generate-candidate", "fix-candidate"]);
  });

  it("returns an empty result once the fixer attempts are used up", async () => {
    const answer = await answerQuestion({
      question: "Which customers live in Atlantis?",
      session,
      settings: { ...settings, maxFixAttempts: 1 },
    });
    expect(answer.result.rows).toEqual([]);
    expect(answer.candidates[0]).toMatchObject({ revisions: 1, ok: true, rows: 0 });
  });

  it("throws the database error after the last attempt and logs the failure", async () => {
    const trace = collect();
    const attempt = answerQuestion({ question: "What is the average order total?", session, settings, ...trace });
    await expect(attempt).rejects.toBeInstanceOf(DatabaseError);
    await expect(attempt).rejects.toMatchObject({ code: "42703" });
    // The second revision repeats the first, so the loop stops there instead of using all three attempts.
    expect(trace.events.filter((event) => event.type === "fix-start")).toHaveLength(2);
    expect(trace.entries.at(-1)).toMatchObject({ ok: false, error: { code: "42703" }, calls: expect.any(Array) });
  });

  it("reports an unanswerable question with the model's reasoning", async () => {
    const attempt = answerQuestion({ question: "What is the weather tomorrow?", session, settings });
    await expect(attempt).rejects.toBeInstanceOf(UnanswerableQuestionError);
    await expect(attempt).rejects.toThrow(/nothing about weather/);
  });

  it("refuses a data-modifying statement before execution", async () => {
    const attempt = answerQuestion({
      question: "Remove all orders",
      session,
      settings: { ...settings, maxFixAttempts: 0 },
    });
    await expect(attempt).rejects.toBeInstanceOf(SqlValidationError);
    expect((await session.query({ sql: "SELECT count(*) FROM orders" })).rows).toEqual([["3"]]);
  });

  it("runs under the asking role: hidden columns are neither shown nor readable", async () => {
    const restricted = new pg.Client({ connectionString: database.urlFor(role) });
    await restricted.connect();
    try {
      const trace = collect();
      const attempt = answerQuestion({
        question: "List customer secrets",
        session: createPgExecutor(restricted),
        settings: { ...settings, maxFixAttempts: 0 },
        ...trace,
      });
      await expect(attempt).rejects.toMatchObject({ code: "42501" });
      expect(trace.events.find((event) => event.type === "catalog-end")).toMatchObject({ columns: 6 });
    } finally {
      await restricted.end();
    }
  });

  it("leaves the user's open transaction, settings and temp tables as they were", async () => {
    await session.query({ sql: "BEGIN" });
    await session.query({ sql: "CREATE TEMP TABLE notes (n integer)" });
    await session.query({ sql: "SET LOCAL statement_timeout = 4321" });
    const answer = await answerQuestion({
      question: "List all orders",
      session,
      settings: { ...settings, rowLimit: 2 },
      transactionStatus: "in-transaction",
    });
    expect(answer.result.rows).toEqual([
      ["1", "10.50"],
      ["2", "20.00"],
    ]);
    expect(answer.truncated).toBe(true);
    expect((await session.query({ sql: "SHOW statement_timeout" })).rows).toEqual([["4321ms"]]);
    expect((await session.query({ sql: "SHOW transaction_read_only" })).rows).toEqual([["off"]]);
    await session.query({ sql: "INSERT INTO notes VALUES (1)" });
    await session.query({ sql: "COMMIT" });
    expect((await session.query({ sql: "SELECT count(*) FROM notes" })).rows).toEqual([["1"]]);
  });

  it("lets a schema selector narrow the schema the generator sees", async () => {
    const model = mockTextModel(JSON.stringify({ reasoning: "sum totals", sql: "SELECT sum(total) FROM orders" }), {
      input: 10,
      output: 5,
    });
    const trace = collect();
    const answer = await answerQuestion({
      question: "What is the total of all orders?",
      hint: "total is in dollars",
      previousTurns: [{ question: "How many orders are there?", sql: "SELECT count(*) FROM orders" }],
      session,
      settings,
      ...trace,
      resolveModel: () => ({ model, id: "mock:generator", scripted: false }),
      schemaSelector: {
        name: "orders-only",
        select: async ({ catalog }) => ({
          catalog: { tables: catalog.tables.filter((table) => table.name === "orders") },
          hint: "orders.total holds the order amount",
        }),
      },
    });
    expect(answer.result.rows).toEqual([["35.75"]]);
    expect(answer.model).toEqual({ id: "mock:generator", scripted: false });
    // schema-start carries the whole catalog the selector starts from, schema-end what it kept.
    expect(
      trace.events
        .map((event) => event.type)
        .filter((type) => ["catalog-end", "schema-start", "schema-end", "candidate-start"].includes(type)),
    ).toEqual(["catalog-end", "schema-start", "schema-end", "candidate-start"]);
    expect(trace.events.find((event) => event.type === "schema-start")).toEqual({
      type: "schema-start",
      tables: 2,
      columns: 7,
    });
    expect(trace.events.find((event) => event.type === "schema-end")).toEqual({
      type: "schema-end",
      tables: 1,
      columns: 3,
    });
    const prompt = JSON.stringify(model.doGenerateCalls[0]?.prompt);
    expect(prompt).toContain("CREATE TABLE orders");
    expect(prompt).not.toContain("CREATE TABLE customers");
    expect(prompt).toContain("1. How many orders are there?");
    expect(prompt).toContain("total is in dollars\\norders.total holds the order amount");
  });

  it("explains how to configure a model when none is", async () => {
    await expect(
      answerQuestion({ question: "How many customers are there?", session, settings: loadSettings({}) }),
    ).rejects.toThrow(ModelConfigurationError);
  });

  it("stops with CancelledError when aborted", async () => {
    const controller = new AbortController();
    const trace = collect();
    const attempt = answerQuestion({
      question: "How many customers are there?",
      session,
      settings,
      abortSignal: controller.signal,
      onEvent: (event) => {
        if (event.type === "catalog-end") controller.abort();
      },
      queryLog: trace.queryLog,
    });
    await expect(attempt).rejects.toBeInstanceOf(CancelledError);
    expect(trace.entries.at(-1)).toMatchObject({ ok: false, error: { code: "57014" } });
  });
});
