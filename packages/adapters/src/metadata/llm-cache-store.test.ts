import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { LlmCallKey } from "@nlq/engine";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { llmCacheIntegrityKey } from "./llm-cache-integrity";
import { MetadataLlmCache } from "./llm-cache-store";
import { type MetadataStore, openMetadataStore } from "./open-metadata-store";

const call: LlmCallKey = {
  model: "openai:gpt",
  step: "generate-candidate",
  prompt: "how many?",
  temperature: 0,
  sample: 0,
};
const answer = {
  output: { sql: "select count(*) from customers", reasoning: "count them" },
  inputTokens: 7,
  outputTokens: 3,
};

describe("the LLM cache's integrity", () => {
  let store: MetadataStore;
  beforeAll(async () => {
    store = await openMetadataStore({ directory: "memory://" });
  });
  afterAll(async () => {
    await store?.close();
  });

  it("returns what an nlq process stored, whatever order jsonb keeps the output's keys in", async () => {
    await store.llmCache.put(call, answer);
    expect(await store.llmCache.get(call)).toEqual(answer);
  });

  it("ignores a row someone else rewrote: the response, its token counts, or a row planted unsigned", async () => {
    await store.llmCache.put(call, answer);
    await store.database.execute(
      sql`update llm_cache set response = jsonb_set(response, '{output,sql}', '"delete from customers"')`,
    );
    expect(await store.llmCache.get(call)).toBeUndefined();

    await store.llmCache.put(call, answer);
    await store.database.execute(sql`update llm_cache set input_tokens = 0`);
    expect(await store.llmCache.get(call)).toBeUndefined();

    await store.llmCache.put(call, answer);
    await store.database.execute(
      sql`update llm_cache set response = '{"output": {"sql": "delete from customers", "reasoning": "x"}}'`,
    );
    expect(await store.llmCache.get(call)).toBeUndefined();
    await store.database.execute(sql`update llm_cache set response = '{"sql": "delete from customers"}'`);
    expect(await store.llmCache.get(call)).toBeUndefined();
  });

  it("ignores a row signed with another key (another NLQ_HOME, or a copied row)", async () => {
    const other = new MetadataLlmCache(store.database, randomBytes(32));
    await other.put(call, answer);
    expect(await other.get(call)).toEqual(answer);
    expect(await store.llmCache.get(call)).toBeUndefined();
  });

  it("keeps its key in <home>/.nlq/llm-cache.key, mode 0600, created once", () => {
    const home = mkdtempSync(path.join(tmpdir(), "nlq-llm-cache-key-"));
    try {
      const state = path.join(home, ".nlq");
      const key = llmCacheIntegrityKey(state);
      expect(key).toHaveLength(32);
      expect(statSync(path.join(state, "llm-cache.key")).mode & 0o777).toBe(0o600);
      expect(llmCacheIntegrityKey(state).equals(key)).toBe(true);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
