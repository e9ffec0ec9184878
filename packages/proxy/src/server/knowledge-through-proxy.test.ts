import path from "node:path";
import {
  createPgExecutor,
  createQuestionAnswerer,
  importKnowledgeFile,
  type MetadataStore,
  openMetadataStore,
} from "@nlq/adapters";
import { createTestDatabase, dropTestRole, type TestDatabase } from "@nlq/adapters/testing";
import { type AnswerQuestionOptions, answerQuestion, loadSettings } from "@nlq/engine";
import { mockTextResult, stepOf } from "@nlq/engine/testing";
import { MockLanguageModelV3 } from "ai/test";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestProxy, upstreamHost, upstreamPort } from "./proxy.test-helpers";
import type { ProxyServer } from "./proxy-server";

// Issue 27's check through a real proxy and a real client: a dbt manifest imported as an administrator's knowledge
// (importKnowledgeFile, what `nlq knowledge import` runs), then a question whose generator prompt carries the imported
// metric definition and column description, and the NOTICE that says which definitions it used; asked as a role that
// may not read the metric's table, the prompt carries neither. The model is a mock (no real model) that keeps the
// prompts it was given.

const manifest = path.resolve(import.meta.dirname, "../../../adapters/src/knowledge-import/fixtures/dbt-manifest.json");
const reader = `nlq_kn_proxy_reader_${process.pid}`;
const limited = `nlq_kn_proxy_limited_${process.pid}`;
let database: TestDatabase;
let store: MetadataStore;
let proxy: ProxyServer;
const prompts: string[] = [];

const model = new MockLanguageModelV3({
  doGenerate: async (call) => {
    if (!stepOf(call).startsWith("generate-")) throw new Error(`no answer for step ${stepOf(call)}`);
    prompts.push(JSON.stringify(call.prompt));
    const sql = "SELECT region, count(*) AS customers FROM analytics.dim_customers GROUP BY region ORDER BY region";
    return mockTextResult(JSON.stringify({ reasoning: "customers per region", sql }));
  },
});

const settings = { ...loadSettings({ NLQ_PRESET: "fast" }), summarizeAnswer: false };

function databaseName(): string {
  return new URL(database.url).pathname.slice(1);
}

beforeAll(async () => {
  for (const role of [reader, limited]) await dropTestRole(role);
  database = await createTestDatabase(
    "nlq_knowledge_proxy",
    `CREATE SCHEMA analytics; CREATE SCHEMA raw;
     CREATE TABLE analytics.orders (order_id integer PRIMARY KEY, total_cents bigint, is_test boolean);
     CREATE TABLE analytics.dim_customers (customer_id integer PRIMARY KEY, region text);
     CREATE TABLE raw.shop_orders (id integer PRIMARY KEY);
     INSERT INTO analytics.dim_customers VALUES (1, 'EMEA'), (2, 'APAC');
     CREATE ROLE ${reader} LOGIN; CREATE ROLE ${limited} LOGIN;
     GRANT USAGE ON SCHEMA analytics TO ${reader}, ${limited};
     GRANT SELECT ON analytics.orders, analytics.dim_customers TO ${reader};
     GRANT SELECT ON analytics.dim_customers TO ${limited};`,
  );
  store = await openMetadataStore({ directory: "memory://" });
  const importer = new pg.Client({ connectionString: database.url });
  await importer.connect();
  try {
    await importKnowledgeFile({
      database: store.database,
      dataSource: `${upstreamHost}:${upstreamPort}/${databaseName()}`,
      editor: { role: "postgres", administrator: true },
      session: createPgExecutor(importer, { name: "nlq-knowledge-test" }),
      statementTimeoutMilliseconds: 10_000,
      file: manifest,
    });
  } finally {
    await importer.end();
  }
  const answerer = createQuestionAnswerer({
    store,
    upstreamUrl: `postgresql://${upstreamHost}:${upstreamPort}`,
    answerQuestion: (options: AnswerQuestionOptions) =>
      answerQuestion({ ...options, resolveModel: () => ({ model, id: "mock:model", scripted: false }) }),
  }).answer;
  proxy = await startTestProxy(answerer, { settings });
});
afterAll(async () => {
  await proxy?.close();
  await store?.close();
  await database?.drop();
  for (const role of [reader, limited]) await dropTestRole(role);
});

async function ask(user: string): Promise<{ prompts: string[]; notices: string[] }> {
  const notices: string[] = [];
  prompts.length = 0;
  const client = new pg.Client({ host: upstreamHost, port: proxy.address.port, user, database: databaseName() });
  client.on("notice", (notice) => notices.push(notice.message ?? ""));
  await client.connect();
  try {
    const result = await client.query("/* nl: What is the Revenue per region? */");
    expect(result.rows).toEqual([
      { region: "APAC", customers: "1" },
      { region: "EMEA", customers: "1" },
    ]);
  } finally {
    await client.end();
  }
  return { prompts: [...prompts], notices };
}

describe("imported knowledge through the proxy", () => {
  it("reaches the generator prompt of a role that may read what it names, and the answer says so", async () => {
    const { prompts: seen, notices } = await ask(reader);
    expect(seen.length).toBeGreaterThan(0);
    const generator = seen.join("\n");
    expect(generator).toContain("sum(total_cents / 100.0)");
    expect(generator).toContain(
      "Revenue in euros, VAT included. Computed over analytics.orders. Only rows where is_test = false.",
    );
    expect(generator).toContain("True for orders placed by the QA team; exclude them from every figure.");
    expect(notices.find((notice) => notice.startsWith("nlq: used "))).toMatch(/metric «Revenue»/);
  });

  it("never reaches a role that may not read the metric's table", async () => {
    const { prompts: seen, notices } = await ask(limited);
    expect(seen.length).toBeGreaterThan(0);
    const generator = seen.join("\n");
    expect(generator).not.toContain("sum(total_cents / 100.0)");
    expect(generator).not.toContain("Revenue in euros");
    expect(generator).not.toContain("QA team");
    expect(generator).toContain("Sales region: EMEA, AMER or APAC.");
    expect(notices.find((notice) => notice.startsWith("nlq: used ")) ?? "").not.toContain("Revenue");
  });
});
