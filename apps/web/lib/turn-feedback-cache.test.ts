import {
  createPgExecutor,
  createQuestionAnswerer,
  dataSourceKey,
  type MetadataStore,
  openMetadataStore,
  VerifiedExampleStore,
  WebThreadStore,
} from "@nlq/adapters";
import { createTestDatabase, type TestDatabase } from "@nlq/adapters/testing";
import { loadSettings } from "@nlq/engine";
import { mockTextModel, stepOf } from "@nlq/engine/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evictCorrectedAnswer } from "./evict-corrected-answer";
import { applyTurnFeedback } from "./turn-feedback";

// A thumbs-down evicts the cached responses of the answer it rated (issue 27 item 4), on a real PostgreSQL: the
// metadata store, the question's database, the one composition every surface answers through, a mock model.

let metadata: TestDatabase;
let target: TestDatabase;
let store: MetadataStore;
let client: pg.Client;

beforeAll(async () => {
  metadata = await createTestDatabase("nlq_web_feedback_cache");
  target = await createTestDatabase(
    "nlq_web_feedback_target",
    "CREATE TABLE orders (id integer PRIMARY KEY); INSERT INTO orders VALUES (1), (2), (3);",
  );
  store = await openMetadataStore({ url: metadata.url });
  client = new pg.Client({ connectionString: target.url });
  await client.connect();
});
afterAll(async () => {
  await client?.end();
  await store?.close();
  await metadata?.drop();
  await target?.drop();
});

function countingModel() {
  const modelSteps: string[] = [];
  const model = mockTextModel((call) => {
    const step = stepOf(call);
    modelSteps.push(step);
    if (step === "find-readings") return JSON.stringify({ phrases: [] });
    return step === "extract-keywords"
      ? JSON.stringify({ keywords: ["orders"] })
      : JSON.stringify({ reasoning: "count", sql: "SELECT count(*) AS n FROM orders" });
  });
  return { model, modelSteps };
}

function askAs(question: string, model: ReturnType<typeof mockTextModel>) {
  const settings = {
    ...loadSettings({ NLQ_PRESET: "balanced" }),
    generators: [{ generator: "one-shot" as const, samples: 1, temperature: 0 }],
    summarizeAnswer: false,
  };
  const { answer } = createQuestionAnswerer({ store, url: target.url, llmCache: store.llmCache });
  return () =>
    answer({
      question,
      session: createPgExecutor(client),
      settings,
      resolveModel: () => ({ model, id: "mock:model", scripted: false }),
    });
}

const user = () => ({ role: "postgres", dataSource: dataSourceKey(target.url) });

describe("a thumbs-down on a web turn", () => {
  it("evicts the cached responses of its answer: asking the same question again calls the model", async () => {
    const { model, modelSteps } = countingModel();
    const question = "how many orders?";
    const ask = askAs(question, model);
    const threads = new WebThreadStore(store.database);
    const thread = await threads.create(user(), question);
    const first = await ask();
    const turn = await threads.appendTurn(user(), thread.id, { question, sql: first.sql, reply: {} });
    const called = modelSteps.length;
    expect((await ask()).calls.every((call) => call.cached)).toBe(true);
    expect(modelSteps).toHaveLength(called);

    const outcome = await applyTurnFeedback({
      threads,
      examples: new VerifiedExampleStore(store.database),
      user: user(),
      turnId: turn!.id,
      feedback: "down",
      administrator: async () => false,
      responseCache: store.llmCache,
    });
    expect(outcome).toEqual({ feedback: "down", evictedResponses: called });
    const again = await ask();
    expect(modelSteps).toHaveLength(2 * called);
    expect(again.calls.some((call) => call.cached)).toBe(false);
  });
});

describe("a corrected SQL saved for a question", () => {
  it("evicts the cached responses of the question as asked, unless it was a picked reading", async () => {
    const { model, modelSteps } = countingModel();
    const asked = "how many orders were placed?";
    const ask = askAs(asked, model);
    await ask();
    const called = modelSteps.length;
    const picked = { question: asked, picked: true };
    expect(await evictCorrectedAnswer(store.llmCache, user(), picked)).toBe(0);
    expect((await ask()).calls.every((call) => call.cached)).toBe(true);
    const reworded = { question: "how many orders are there?", answered: asked };
    expect(await evictCorrectedAnswer(store.llmCache, user(), reworded)).toBe(called);
    await ask();
    expect(modelSteps).toHaveLength(2 * called);
  });
});
