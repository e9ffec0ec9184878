import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  BackgroundValueIndexes,
  backgroundIndexKey,
  createPgExecutor,
  ensureDataSource,
  indexCatalog,
  type MetadataStore,
  openMetadataStore,
} from "@nlq/adapters";
import { ConfigurationError, loadSettings } from "@nlq/engine";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const serverUrl = process.env.NLQ_TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const suffix = randomBytes(4).toString("hex");
const database = `nlq_web_deps_${suffix}`;
/** The database the chat asks about (DATABASE_URL); indexed into the metadata store by one test. */
const dataDatabase = `nlq_web_deps_data_${suffix}`;

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function urlOf(name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

const saved = { DATABASE_URL: process.env.DATABASE_URL, NLQ_METADATA_URL: process.env.NLQ_METADATA_URL };

beforeAll(async () => {
  await admin(`CREATE DATABASE ${database}`);
  await admin(`CREATE DATABASE ${dataDatabase}`);
  const client = new pg.Client({ connectionString: urlOf(dataDatabase) });
  await client.connect();
  try {
    await client.query(
      "CREATE TABLE product (id integer PRIMARY KEY, title text); INSERT INTO product VALUES (1, 'Lamp'), (2, 'Chair')",
    );
  } finally {
    await client.end();
  }
  process.env.DATABASE_URL = urlOf(dataDatabase);
  process.env.NLQ_METADATA_URL = urlOf(database);
});

afterAll(async () => {
  const resources = (
    globalThis as { __nlqWeb?: { pool?: pg.Pool; metadataStore?: Promise<MetadataStore | undefined> } }
  ).__nlqWeb;
  await (await resources?.metadataStore)?.close();
  await resources?.pool?.end();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await admin(`DROP DATABASE IF EXISTS ${dataDatabase} WITH (FORCE)`);
});

describe("defaultChatDependencies", () => {
  it("logs questions to the metadata store named by NLQ_METADATA_URL, as origin web", async () => {
    const { defaultChatDependencies } = await import("./default-chat-dependencies");
    const dependencies = await defaultChatDependencies();
    expect(dependencies.queryLog).toBeDefined();
    await dependencies.queryLog?.record({
      question: "how many customers are there?",
      sql: "SELECT 1",
      ok: true,
      confidence: 1,
      rows: 1,
      model: "scripted:demo-model.json",
      scripted: true,
      candidates: [],
      calls: [],
      elapsedMilliseconds: 3,
      origin: "web",
    });
    const client = new pg.Client({ connectionString: urlOf(database) });
    await client.connect();
    try {
      const logged = await client.query("SELECT question, origin, scripted FROM query_log");
      expect(logged.rows).toEqual([{ question: "how many customers are there?", origin: "web", scripted: true }]);
    } finally {
      await client.end();
    }
  });

  it("answers from the catalog index of DATABASE_URL's database once nlq index built one, live before", async () => {
    const { defaultChatDependencies } = await import("./default-chat-dependencies");
    const directory = mkdtempSync(path.join(tmpdir(), "nlq-web-deps-"));
    const fixture = path.join(directory, "model.json");
    writeFileSync(
      fixture,
      JSON.stringify({
        description: "Scripted test responses: no language model produced these.",
        responses: [
          {
            step: "generate-candidate",
            question: "How many products are there?",
            output: { reasoning: "Count the products.", sql: "SELECT count(*) AS products FROM product" },
          },
        ],
      }),
    );
    const ask = async () => {
      const dependencies = await defaultChatDependencies();
      const session = await dependencies.openSession(new AbortController().signal);
      const sources: string[] = [];
      try {
        const answer = await dependencies.answer({
          question: "How many products are there?",
          session: session.executor,
          settings: loadSettings({ NLQ_MODEL: `scripted:${fixture}` }),
          origin: "web",
          onEvent: (event) => {
            if (event.type === "catalog-end") sources.push(event.source);
          },
        });
        return { sources, rows: answer.result.rows };
      } finally {
        session.release(false);
      }
    };
    const store = await openMetadataStore({ url: urlOf(database) });
    const client = new pg.Client({ connectionString: urlOf(dataDatabase) });
    try {
      expect(await ask()).toEqual({ sources: ["introspection"], rows: [["2"]] });
      await client.connect();
      const dataSource = await ensureDataSource(store.database, { url: urlOf(dataDatabase) });
      await indexCatalog({ executor: createPgExecutor(client), database: store.database, dataSourceId: dataSource.id });
      expect(await ask()).toEqual({ sources: ["index"], rows: [["2"]] });
    } finally {
      await client.end();
      await store.close();
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it("builds value indexes in the background without a metadata store too, per database and asking role", async () => {
    const { defaultChatDependencies } = await import("./default-chat-dependencies");
    delete process.env.NLQ_METADATA_URL;
    const use = vi
      .spyOn(BackgroundValueIndexes.prototype, "use")
      .mockImplementation(() => ({ status: "building" as const }));
    try {
      const dependencies = await defaultChatDependencies();
      expect(dependencies.queryLog).toBeUndefined();
      const session = await dependencies.openSession(new AbortController().signal);
      try {
        // No model is configured: the answer fails, after the question's values were prepared.
        await dependencies
          .answer({ question: "Which lamps?", session: session.executor, settings: loadSettings({}) })
          .catch(() => undefined);
      } finally {
        session.release(false);
      }
      const asking = new URL(urlOf(dataDatabase));
      asking.username = new URL(serverUrl).username;
      asking.password = "";
      expect(use.mock.calls.map(([key]) => key)).toEqual([backgroundIndexKey(asking.toString())]);
    } finally {
      use.mockRestore();
      process.env.NLQ_METADATA_URL = urlOf(database);
    }
  });

  it("opens a session on DATABASE_URL through core's pg executor and returns it to the pool", async () => {
    const { defaultChatDependencies } = await import("./default-chat-dependencies");
    const dependencies = await defaultChatDependencies();
    const session = await dependencies.openSession(new AbortController().signal);
    const result = await session.executor.query({ sql: "SELECT 1::int8 AS one, NULL::text AS nothing" });
    session.release(false);
    expect(result.fields.map((field) => [field.name, field.dataTypeId])).toEqual([
      ["one", 20],
      ["nothing", 25],
    ]);
    expect(result.rows).toEqual([["1", null]]);
  });

  it("reports a bad NLQ_WEB_POOL_SIZE in each question instead of silently using 10", async () => {
    const { defaultChatDependencies } = await import("./default-chat-dependencies");
    process.env.NLQ_WEB_POOL_SIZE = "abc";
    try {
      const dependencies = await defaultChatDependencies();
      expect(() => dependencies.settings()).toThrow(ConfigurationError);
      expect(() => dependencies.settings()).toThrow('NLQ_WEB_POOL_SIZE must be a whole number ≥ 1, got "abc"');
      await expect(dependencies.openSession(new AbortController().signal)).rejects.toThrow(/NLQ_WEB_POOL_SIZE/);
    } finally {
      delete process.env.NLQ_WEB_POOL_SIZE;
    }
  });
});
