import { randomBytes } from "node:crypto";
import type { MetadataStore } from "@nlq/core";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const serverUrl = process.env.NLQ_TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const database = `nlq_web_deps_${randomBytes(4).toString("hex")}`;

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
  process.env.DATABASE_URL = serverUrl;
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
});
