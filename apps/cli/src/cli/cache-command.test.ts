import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type MetadataStore, openMetadataStore } from "@nlq/adapters";
import { createTestDatabase, type TestDatabase } from "@nlq/adapters/testing";
import type { LlmCallKey } from "@nlq/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerCacheCommand } from "./cache-command";
import { runCommand } from "./run-command.test-helpers";

// `nlq cache clear` on a real PostgreSQL metadata store: every cached response, or one data source's.
const home = mkdtempSync(path.join(tmpdir(), "nlq-cache-home-"));
let metadata: TestDatabase;
let environment: Record<string, string>;

const call = (prompt: string): LlmCallKey => ({
  model: "openai:gpt",
  step: "generate-candidate",
  prompt,
  temperature: 0,
  sample: 0,
});
const response = { output: { sql: "select 1", reasoning: "one" }, inputTokens: 1, outputTokens: 1 };

beforeAll(async () => {
  metadata = await createTestDatabase("nlq_cache_command");
  environment = { NLQ_HOME: home, NLQ_METADATA_URL: metadata.url };
});
afterAll(async () => {
  await metadata?.drop();
  rmSync(home, { recursive: true, force: true });
});

/** A store with the same signing key as the command's (the same NLQ_HOME), holding answers on two data sources. */
async function seeded(): Promise<MetadataStore> {
  const store = await openMetadataStore({ settings: { metadataUrl: metadata.url, home } });
  await store.llmCache.clear();
  for (const [prompt, dataSource] of [
    ["shop", "127.0.0.1:5432/shop"],
    ["hr", "db.internal:5432/hr"],
  ] as const) {
    await store.llmCache.put(call(prompt), response);
    await store.llmCache.linkAnswer({ dataSource, role: "alice", question: prompt }, [
      store.llmCache.keyOf(call(prompt)),
    ]);
  }
  return store;
}

const clear = (...flags: string[]) => runCommand(registerCacheCommand, ["cache", "clear", ...flags], { environment });

describe("nlq cache clear", () => {
  it("clears one data source's responses: by URL (loopback names alike) or by --data-source", async () => {
    const store = await seeded();
    try {
      const run = await clear("--url", "postgresql://someone@localhost:5432/shop");
      expect(run.exitCode, run.stderr).toBeFalsy();
      expect(run.stdout).toBe("cleared 1 cached model response (localhost:5432/shop)\n");
      expect(await store.llmCache.get(call("shop"))).toBeUndefined();
      expect(await store.llmCache.get(call("hr"))).toEqual(response);
      const byName = await clear("--data-source", "db.internal:5432/hr");
      expect(byName.stdout).toBe("cleared 1 cached model response (db.internal:5432/hr)\n");
      expect(await store.llmCache.get(call("hr"))).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it("clears every response without a data source, and refuses a malformed one", async () => {
    const store = await seeded();
    try {
      const run = await clear();
      expect(run.stdout).toBe("cleared 2 cached model responses (every data source)\n");
      expect(await store.llmCache.get(call("shop"))).toBeUndefined();
      const bad = await clear("--data-source", "shop");
      expect(bad.exitCode).toBe(2);
      expect(bad.stderr).toContain("--data-source must be host:port/database");
    } finally {
      await store.close();
    }
  });
});
