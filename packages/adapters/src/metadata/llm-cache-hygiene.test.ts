import type { LlmCallKey } from "@nlq/engine";
import { loadSettings } from "@nlq/engine";
import { mockTextModel, stepOf } from "@nlq/engine/testing";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataSourceKey } from "../audit/data-source-key";
import { createQuestionAnswerer } from "../catalog-index/question-answerer";
import { createPgExecutor } from "../postgres/pg-executor";
import { createTestDatabase, type TestDatabase } from "../testing/test-database";
import { MetadataLlmCache } from "./llm-cache-store";
import { type MetadataStore, openMetadataStore } from "./open-metadata-store";
import { llmCache } from "./schema/llm-cache";

// Cache hygiene (issue 27 item 4) on a real PostgreSQL metadata store: responses expire, feedback on an answer
// evicts the responses it was made of, and the cache can be cleared, all of it or one data source's part.

const call = (prompt: string): LlmCallKey => ({
  model: "openai:gpt",
  step: "generate-candidate",
  prompt,
  temperature: 0,
  sample: 0,
});
const response = { output: { sql: "select 1", reasoning: "one" }, inputTokens: 7, outputTokens: 3 };

let metadata: TestDatabase;
let target: TestDatabase;
let store: MetadataStore;

beforeAll(async () => {
  metadata = await createTestDatabase("nlq_cache_hygiene");
  target = await createTestDatabase(
    "nlq_cache_target",
    `CREATE TABLE customers (id integer PRIMARY KEY, name text NOT NULL);
     INSERT INTO customers VALUES (1, 'Ada'), (2, 'Blaise');`,
  );
  store = await openMetadataStore({ url: metadata.url });
});
afterAll(async () => {
  await store?.close();
  await metadata?.drop();
  await target?.drop();
});

const age = (days: number) =>
  store.database.execute(sql`update llm_cache set created_at = now() - make_interval(days => ${days})`);

describe("the response cache's time to live", () => {
  it("does not replay a row older than the time to live, and prunes it", async () => {
    await store.llmCache.clear();
    await store.llmCache.put(call("expired?"), response);
    expect(await store.llmCache.get(call("expired?"))).toEqual(response);
    await age(8);
    expect(await store.llmCache.get(call("expired?"))).toBeUndefined();
    expect(await store.llmCache.prune()).toBe(1);
    const [remaining] = await store.database.select({ key: llmCache.key }).from(llmCache);
    expect(remaining).toBeUndefined();
  });

  it("keeps a row younger than the time to live, and a rewrite restarts it", async () => {
    await store.llmCache.clear();
    await store.llmCache.put(call("young"), response);
    await age(6);
    expect(await store.llmCache.get(call("young"))).toEqual(response);
    expect(await store.llmCache.prune()).toBe(0);
    await age(8);
    await store.llmCache.put(call("young"), response);
    expect(await store.llmCache.get(call("young"))).toEqual(response);
  });

  it("follows NLQ_RESPONSE_CACHE_TTL: an hour, never, or 0 (nothing stored)", async () => {
    await store.llmCache.clear();
    const key = Buffer.alloc(32, 7);
    const hourly = new MetadataLlmCache(store.database, key, { timeToLiveSeconds: 3_600 });
    await hourly.put(call("hourly"), response);
    await store.database.execute(sql`update llm_cache set created_at = now() - interval '2 hours'`);
    expect(await hourly.get(call("hourly"))).toBeUndefined();
    const forever = new MetadataLlmCache(store.database, key, { timeToLiveSeconds: null });
    expect(await forever.get(call("hourly"))).toEqual(response);
    expect(await forever.prune()).toBe(0);
    const off = new MetadataLlmCache(store.database, key, { timeToLiveSeconds: 0 });
    await off.put(call("off"), response);
    expect(await forever.get(call("off"))).toBeUndefined();
  });
});

describe("evicting and clearing", () => {
  const answer = { dataSource: "db:5432/shop", role: "alice", question: "how many customers?" };

  it("evicts the responses linked to an answer, and only those", async () => {
    await store.llmCache.clear();
    await store.llmCache.put(call("a"), response);
    await store.llmCache.put(call("b"), response);
    await store.llmCache.put(call("other"), response);
    const keys = [call("a"), call("b")].map((key) => store.llmCache.keyOf(key));
    await store.llmCache.linkAnswer(answer, keys);
    await store.llmCache.linkAnswer({ ...answer, role: "bob" }, [store.llmCache.keyOf(call("other"))]);
    expect(await store.llmCache.evictAnswer({ ...answer, role: "carol" })).toBe(0);
    expect(await store.llmCache.evictAnswer(answer)).toBe(2);
    expect(await store.llmCache.get(call("a"))).toBeUndefined();
    expect(await store.llmCache.get(call("b"))).toBeUndefined();
    expect(await store.llmCache.get(call("other"))).toEqual(response);
  });

  it("clears one data source's responses, or all of them", async () => {
    await store.llmCache.clear();
    await store.llmCache.put(call("shop"), response);
    await store.llmCache.put(call("hr"), response);
    await store.llmCache.put(call("unlinked"), response);
    await store.llmCache.linkAnswer(answer, [store.llmCache.keyOf(call("shop"))]);
    await store.llmCache.linkAnswer({ ...answer, dataSource: "db:5432/hr" }, [store.llmCache.keyOf(call("hr"))]);
    expect(await store.llmCache.clear({ dataSource: "db:5432/shop" })).toBe(1);
    expect(await store.llmCache.get(call("shop"))).toBeUndefined();
    expect(await store.llmCache.get(call("hr"))).toEqual(response);
    expect(await store.llmCache.clear()).toBe(2);
    expect(await store.llmCache.get(call("hr"))).toBeUndefined();
    expect(await store.llmCache.get(call("unlinked"))).toBeUndefined();
  });
});

describe("an answer through the composition", () => {
  it("is linked to its responses, so evicting it makes the same question call the model again", async () => {
    await store.llmCache.clear();
    const steps: string[] = [];
    const model = mockTextModel((modelCall) => {
      const step = stepOf(modelCall);
      steps.push(step);
      if (step === "find-readings") return JSON.stringify({ phrases: [] });
      return step === "extract-keywords"
        ? JSON.stringify({ keywords: ["customers"] })
        : JSON.stringify({ reasoning: "count them", sql: "SELECT count(*) AS n FROM customers" });
    });
    const settings = {
      ...loadSettings({ NLQ_PRESET: "balanced" }),
      generators: [{ generator: "one-shot" as const, samples: 1, temperature: 0 }],
      summarizeAnswer: false,
    };
    const { answer } = createQuestionAnswerer({ store, url: target.url, llmCache: store.llmCache });
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    try {
      const ask = () =>
        answer({
          question: "how many customers?",
          session: createPgExecutor(client),
          settings,
          resolveModel: () => ({ model, id: "mock:model", scripted: false }),
        });
      const first = await ask();
      const called = steps.length;
      expect(called).toBeGreaterThan(0);
      expect(first.calls.some((modelCall) => modelCall.cached)).toBe(false);
      const second = await ask();
      expect(steps).toHaveLength(called);
      expect(second.calls.every((modelCall) => modelCall.cached)).toBe(true);

      const asked = { dataSource: dataSourceKey(target.url), role: "postgres", question: "how many customers?" };
      expect(await store.llmCache.evictAnswer(asked)).toBe(called);
      const third = await ask();
      expect(steps).toHaveLength(2 * called);
      expect(third.calls.some((modelCall) => modelCall.cached)).toBe(false);
    } finally {
      await client.end();
    }
  });

  it("links a failed answer too: its responses are evicted with the question's", async () => {
    await store.llmCache.clear();
    const model = mockTextModel((modelCall) =>
      stepOf(modelCall) === "extract-keywords"
        ? JSON.stringify({ keywords: ["customers"] })
        : JSON.stringify({ reasoning: "guess", sql: "SELECT nothing FROM no_such_table" }),
    );
    const settings = {
      ...loadSettings({ NLQ_PRESET: "balanced" }),
      generators: [{ generator: "one-shot" as const, samples: 1, temperature: 0 }],
      summarizeAnswer: false,
    };
    const { answer } = createQuestionAnswerer({ store, url: target.url, llmCache: store.llmCache });
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    try {
      const question = "what is in the table that is not there?";
      const failed = await answer({
        question,
        session: createPgExecutor(client),
        settings,
        resolveModel: () => ({ model, id: "mock:model", scripted: false }),
      }).catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(Error);
      const asked = { dataSource: dataSourceKey(target.url), role: "postgres", question };
      expect(await store.llmCache.evictAnswer(asked)).toBeGreaterThan(0);
    } finally {
      await client.end();
    }
  });
});
