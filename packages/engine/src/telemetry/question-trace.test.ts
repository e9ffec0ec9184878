import { createPgExecutor } from "@nlq/adapters";
import { createTestDatabase, type TestDatabase } from "@nlq/adapters/testing";
import { context, trace } from "@opentelemetry/api";
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { MockLanguageModelV3 } from "ai/test";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadSettings, type Settings } from "../config/settings";
import type { QueryExecutor } from "../database/query-executor";
import { answerQuestion } from "../pipeline/answer-question";
import { createChessSchemaSelector } from "../schema-selection/chess-schema-selector";
import { mockTextResult, stepOf } from "../testing/mock-text-model";
import { questionSpanName } from "./question-trace";
import { stageSpanNames } from "./stage-spans";

// One question through the whole pipeline with an OpenTelemetry SDK registered and an in-memory exporter: the root
// span, one span per stage and the AI SDK's gen_ai spans of every model call, all in one trace.

let database: TestDatabase;
let client: pg.Client;
let session: QueryExecutor;
const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

beforeAll(async () => {
  database = await createTestDatabase(
    "nlq_tracing",
    `CREATE TABLE customers (id integer PRIMARY KEY, name text NOT NULL, country char(2));
     INSERT INTO customers VALUES (1, 'Ada', 'GB'), (2, 'Blaise', 'FR'), (3, 'Camille', 'FR');`,
  );
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
  session = createPgExecutor(client);
});
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
  context.disable();
  await client?.end();
  await database?.drop();
});
beforeEach(() => {
  exporter.reset();
});

const answers: Record<string, unknown> = {
  "extract-keywords": { keywords: ["customers", "France"] },
  "find-readings": { phrases: [] },
  // A first attempt that fails, so the fixer runs.
  "generate-candidate": { reasoning: "count", sql: "SELECT count(*) AS n FROM customer" },
  "fix-candidate": { reasoning: "the table is customers", sql: "SELECT count(*) AS n FROM customers" },
  "generate-divide-and-conquer": { reasoning: "count", sql: "SELECT count(id) AS n FROM customers" },
  "generate-query-plan": { reasoning: "French", sql: "SELECT count(*) AS n FROM customers WHERE country = 'FR'" },
  "summarize-answer": { answer: "There are 3 customers." },
};

const model = new MockLanguageModelV3({
  doGenerate: async (call) => {
    const answer = answers[stepOf(call)];
    if (answer === undefined) throw new Error(`no answer for step ${stepOf(call)}`);
    return mockTextResult(JSON.stringify(answer), { input: 10, output: 5 });
  },
});

function settings(environment: Record<string, string> = {}): Settings {
  return loadSettings({ NLQ_PRESET: "balanced", NLQ_SCHEMA_SELECTION: "extract-keywords", ...environment });
}

function ask(askSettings: Settings) {
  return answerQuestion({
    question: "how many customers?",
    session,
    settings: askSettings,
    origin: "web",
    schemaSelector: createChessSchemaSelector({}),
    resolveModel: () => ({ model, id: "mock:model", scripted: false }),
  });
}

function named(spans: readonly ReadableSpan[], name: string): ReadableSpan[] {
  return spans.filter((span) => span.name === name);
}

describe("tracing off", () => {
  it("records nothing when no tracer provider is registered", async () => {
    const answer = await ask(settings());
    expect(answer.result.rows).toEqual([["3"]]);
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});

describe("tracing on (an SDK registered, in-memory exporter)", () => {
  beforeAll(() => {
    provider.register();
  });

  it("records the question's root span, one span per stage and the gen_ai spans of every model call", async () => {
    const answer = await ask(settings());
    expect(answer.result.rows).toEqual([["3"]]);
    const spans = exporter.getFinishedSpans();
    const [root] = named(spans, questionSpanName);
    expect(root).toBeDefined();
    const traceId = root!.spanContext().traceId;
    expect(spans.every((span) => span.spanContext().traceId === traceId)).toBe(true);
    expect(root!.attributes).toMatchObject({
      "nlq.origin": "web",
      "nlq.preset": "balanced",
      "nlq.candidates": 3,
      "nlq.clusters": 2,
      "nlq.interpretations": 2,
      "nlq.needs_choice": false,
      "nlq.rows": 1,
      "nlq.model": "mock:model",
    });
    // Content is off by default: no question, no SQL.
    expect(root!.attributes["nlq.question"]).toBeUndefined();
    expect(root!.attributes["db.query.text"]).toBeUndefined();

    const rootId = root!.spanContext().spanId;
    for (const name of [
      stageSpanNames.catalog,
      stageSpanNames.keywords,
      stageSpanNames.schema,
      stageSpanNames.selection,
      stageSpanNames.summary,
    ]) {
      expect(named(spans, name).map((span) => span.parentSpanContext?.spanId)).toEqual([rootId]);
    }
    expect(named(spans, stageSpanNames.keywords)[0]!.attributes).toMatchObject({
      "nlq.keywords.count": 2,
      "nlq.keywords.source": "model",
    });
    const generation = named(spans, stageSpanNames.candidate);
    expect(generation.map((span) => span.attributes["nlq.generator"]).sort()).toEqual([
      "divide-and-conquer",
      "one-shot",
      "query-plan",
    ]);
    const [fixing] = named(spans, stageSpanNames.fix);
    const oneShot = generation.find((span) => span.attributes["nlq.generator"] === "one-shot")!;
    expect(fixing!.parentSpanContext?.spanId).toBe(oneShot.spanContext().spanId);
    expect(named(spans, stageSpanNames.selection)[0]!.attributes).toMatchObject({
      "nlq.selector": "self-consistency",
      "nlq.clusters": 2,
    });

    // The AI SDK's spans: one ai.generateText per model call, its doGenerate child carrying the gen_ai attributes.
    const calls = named(spans, "ai.generateText");
    expect(calls.map((span) => span.attributes["ai.telemetry.functionId"]).sort()).toEqual([
      "nlq.extract-keywords",
      "nlq.find-readings",
      "nlq.fix-candidate",
      "nlq.generate-candidate",
      "nlq.generate-divide-and-conquer",
      "nlq.generate-query-plan",
      "nlq.summarize-answer",
    ]);
    for (const call of calls) expect(call.parentSpanContext?.spanId).toBe(rootId);
    const generated = named(spans, "ai.generateText.doGenerate");
    expect(generated).toHaveLength(7);
    for (const span of generated) {
      expect(span.attributes).toMatchObject({
        "gen_ai.request.model": expect.any(String),
        "gen_ai.usage.input_tokens": 10,
        "gen_ai.usage.output_tokens": 5,
      });
      expect(span.attributes["ai.prompt.messages"]).toBeUndefined();
    }
  });

  it("records the question, SQL and prompts only with NLQ_TRACE_CONTENT=on", async () => {
    await ask(settings({ NLQ_TRACE_CONTENT: "on" }));
    const spans = exporter.getFinishedSpans();
    const [root] = named(spans, questionSpanName);
    expect(root!.attributes["nlq.question"]).toBe("how many customers?");
    expect(root!.attributes["db.query.text"]).toBe("SELECT count(*) AS n FROM customers");
    expect(named(spans, "ai.generateText.doGenerate")[0]!.attributes["ai.prompt.messages"]).toEqual(expect.any(String));
  });

  it("marks the root span failed with the SQLSTATE when the question fails", async () => {
    await expect(
      answerQuestion({
        question: "how many customers?",
        session,
        settings: {
          ...settings(),
          generators: [{ generator: "one-shot", samples: 1, temperature: 0 }],
          maxFixAttempts: 0,
        },
        resolveModel: () => ({ model, id: "mock:model", scripted: false }),
      }),
    ).rejects.toMatchObject({ code: "42P01" });
    const [root] = named(exporter.getFinishedSpans(), questionSpanName);
    expect(root!.status.code).toBe(2);
    expect(root!.attributes).toMatchObject({ "error.type": "DatabaseError", "db.response.status_code": "42P01" });
  });
});
