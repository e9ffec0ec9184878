import { randomUUID } from "node:crypto";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { QueryLogEntry } from "@nlq/engine";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runningServer } from "../embedded-postgres/server-status";
import { connectionFingerprint, ensureDataSource } from "./data-source-store";
import { type MetadataStore, openMetadataStore, redactUrl } from "./open-metadata-store";
import { dataSources } from "./schema/data-sources";

const adminUrl = process.env.NLQ_TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

function entry(overrides: Partial<QueryLogEntry> = {}): QueryLogEntry {
  return {
    question: "how many customers are there?",
    sql: "select count(*) from customers",
    ok: true,
    confidence: 1,
    rows: 1,
    model: "scripted:fixtures/demo-model.json",
    scripted: true,
    candidates: [
      { generator: "one-shot", sample: 0, sql: "select count(*) from customers", revisions: 0, ok: true, rows: 1 },
    ],
    calls: [
      {
        step: "generate",
        model: "scripted:x",
        scripted: true,
        inputTokens: 10,
        outputTokens: 5,
        latencyMilliseconds: 3,
      },
    ],
    elapsedMilliseconds: 12.6,
    origin: "proxy",
    ...overrides,
  };
}

/** The same behaviour, whichever driver backs the store. */
function metadataStoreContract(driverName: string, open: () => Promise<MetadataStore>) {
  describe(`metadata store contract (${driverName})`, () => {
    let store: MetadataStore;
    beforeAll(async () => {
      store = await open();
    });
    afterAll(async () => {
      await store?.close();
    });

    it("creates every table at open", async () => {
      const result = await store.database.execute(
        sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
      );
      const names = (result as unknown as { rows: Array<{ table_name: string }> }).rows.map((row) => row.table_name);
      expect(names).toEqual(expect.arrayContaining(["data_sources", "llm_cache", "query_log"]));
    });

    it("records questions and lists them newest first", async () => {
      await store.queryLog.record(entry({ question: "first" }));
      await store.queryLog.record(
        entry({
          question: "second",
          sql: null,
          ok: false,
          error: { code: "22023", message: "cannot answer" },
          confidence: null,
          rows: null,
          origin: "web",
        }),
      );
      const recent = await store.queryLog.recentQueries(2);
      expect(recent.map((row) => row.question)).toEqual(["second", "first"]);
      const [failed, succeeded] = recent;
      expect(failed).toMatchObject({
        ok: false,
        sql: null,
        errorCode: "22023",
        errorMessage: "cannot answer",
        origin: "web",
      });
      expect(succeeded).toMatchObject({ ok: true, confidence: 1, rows: 1, scripted: true, elapsedMilliseconds: 13 });
      expect(succeeded?.candidates[0]?.generator).toBe("one-shot");
      expect(succeeded?.calls[0]?.inputTokens).toBe(10);
      expect(succeeded?.createdAt).toBeInstanceOf(Date);
    });

    it("creates a data source once per connection, whatever the password", async () => {
      const first = await ensureDataSource(store.database, { url: "postgresql://alice:one@db.example:5433/shop" });
      const second = await ensureDataSource(store.database, { url: "postgresql://alice:two@db.example:5433/shop?x=1" });
      expect(second.id).toBe(first.id);
      expect(first).toMatchObject({ name: "shop", connectionFingerprint: "alice@db.example:5433/shop" });
      expect(JSON.stringify(await store.database.select().from(dataSources))).not.toMatch(/one|two/);
    });

    it("caches model responses by model, step, prompts, temperature and sample", async () => {
      const call = { model: "openai:gpt-4o-mini", step: "generate", prompt: "question?", temperature: 0.8, sample: 0 };
      expect(await store.llmCache.get(call)).toBeUndefined();
      await store.llmCache.put(call, { output: { sql: "select 1" }, inputTokens: 3, outputTokens: 4 });
      await store.llmCache.put(call, { output: { sql: "select 2" }, inputTokens: 3, outputTokens: 4 });
      expect(await store.llmCache.get(call)).toEqual({ output: { sql: "select 2" }, inputTokens: 3, outputTokens: 4 });
      for (const other of [
        { ...call, step: "fix" },
        { ...call, sample: 1 },
        { ...call, temperature: 0 },
        { ...call, system: "be brief" },
      ]) {
        expect(await store.llmCache.get(other)).toBeUndefined();
      }
    });

    it("limits recent queries", async () => {
      expect(await store.queryLog.recentQueries(1)).toHaveLength(1);
    });
  });
}

metadataStoreContract("PGlite in memory", () => openMetadataStore({ directory: "memory://" }));

const databaseName = `nlq_metadata_test_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
const databaseUrl = (() => {
  const url = new URL(adminUrl);
  url.pathname = `/${databaseName}`;
  return url.toString();
})();
describe("PostgreSQL", () => {
  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${databaseName}`);
    await admin.end();
  });
  afterAll(async () => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${databaseName} with (force)`);
    await admin.end();
  });
  metadataStoreContract("node-postgres", () => openMetadataStore({ url: databaseUrl }));

  it("warns once, naming the file and the fix, when the LLM cache key is exposed (and keeps a key of its own)", async () => {
    const home = mkdtempSync(path.join(tmpdir(), "nlq-exposed-key-"));
    try {
      const keyFile = path.join(home, ".nlq", "llm-cache.key");
      mkdirSync(path.dirname(keyFile), { recursive: true });
      writeFileSync(keyFile, `${"ab".repeat(32)}\n`);
      chmodSync(keyFile, 0o644);
      const warnings: string[] = [];
      const warn = (message: string) => warnings.push(message);
      const stores = [
        await openMetadataStore({ url: databaseUrl, settings: { home }, warn }),
        await openMetadataStore({ url: databaseUrl, settings: { home }, warn }),
      ];
      await Promise.all(stores.map((store) => store.close()));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(`the LLM cache key ${keyFile} is open to group or others (mode 0644`);
      expect(warnings[0]).toContain("for this process only");
      expect(warnings[0]).toContain(`chmod 600 ${keyFile}`);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it("concurrent opens of one database migrate once", async () => {
    const stores = await Promise.all([1, 2, 3].map(() => openMetadataStore({ url: databaseUrl })));
    await Promise.all(stores.map((store) => store.close()));
  });
});

describe("openMetadataStore", () => {
  it("defaults to the embedded PostgreSQL under $NLQ_HOME/.nlq/postgres: shared while open, stopped at close, kept", async () => {
    const home = mkdtempSync(path.join(tmpdir(), "nlq-metadata-"));
    try {
      const first = await openMetadataStore({ settings: { home } });
      expect(first.driver).toBe("postgres");
      expect(first.location).toMatch(/^postgresql:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/nlq_metadata$/);
      // A second process-level open attaches to the running server instead of being locked out.
      const second = await openMetadataStore({ settings: { home } });
      expect(second.location).toBe(first.location);
      await first.queryLog.record(entry({ question: "kept" }));
      expect((await second.queryLog.recentQueries()).map((row) => row.question)).toEqual(["kept"]);
      await second.close();
      await first.close();
      expect(runningServer(path.join(home, ".nlq", "postgres"))).toBeUndefined();
      const reopened = await openMetadataStore({ settings: { home } });
      expect((await reopened.queryLog.recentQueries()).map((row) => row.question)).toEqual(["kept"]);
      await reopened.close();
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }, 60_000);

  it("uses NLQ_METADATA_URL and rejects URLs that are not PostgreSQL", async () => {
    await expect(openMetadataStore({ settings: { metadataUrl: "mysql://x@y/z" } })).rejects.toThrow(
      /postgres:\/\/ or postgresql:\/\//,
    );
  });

  it("names the location when PostgreSQL is unreachable, without the password", async () => {
    const failure = openMetadataStore({ url: "postgresql://someone:secret@127.0.0.1:1/nowhere" });
    await expect(failure).rejects.toThrow("postgresql://someone:***@127.0.0.1:1/nowhere");
    expect(redactUrl("postgresql://a:b@h/d")).toBe("postgresql://a:***@h/d");
    expect(connectionFingerprint("postgres://h")).toBe("postgres@h:5432/postgres");
  });
});
