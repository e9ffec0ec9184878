import { createTestDatabase, type TestDatabase } from "@nlq/adapters/testing";
import { answerQuestion, loadSettings } from "@nlq/engine";
import { mockTextModel } from "@nlq/engine/testing";
import type { ProxyServer } from "@nlq/proxy";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientConfig, startTestProxy } from "./proxy-fixture";

/** Issue 6, reproduction 6 through the proxy: twelve 100 MB rows must not all be held and forwarded. */
describe("the byte cap through the proxy (issue 6, reproduction 6)", () => {
  const settings = loadSettings({ NLQ_RESULT_BYTE_LIMIT: "150000000" });
  let database: TestDatabase;
  let proxy: ProxyServer;
  let sql = "";

  beforeAll(async () => {
    database = await createTestDatabase("nlq_byte_limit_proxy", "CREATE TABLE t (id integer)");
    proxy = await startTestProxy((options) => {
      const model = mockTextModel(JSON.stringify({ reasoning: "big", sql }));
      return answerQuestion({ ...options, settings, resolveModel: () => ({ model, id: "mock:big", scripted: false }) });
    });
  });

  afterAll(async () => {
    await proxy?.close();
    await database?.drop();
  });

  async function ask(question: string): Promise<{ result: pg.QueryResult; notices: string[] }> {
    const client = new pg.Client(clientConfig(database.name, proxy.address.port));
    const notices: string[] = [];
    client.on("notice", (notice) => notices.push(notice.message ?? ""));
    await client.connect();
    try {
      const result = await client.query(question);
      expect((await client.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
      return { result, notices };
    } finally {
      await client.end();
    }
  }

  it("answers with the rows that fit and a NOTICE naming the byte limit", async () => {
    sql = "SELECT repeat('x', 100000000) AS blob FROM generate_series(1, 12)";
    const { result, notices } = await ask("/* nl: big blobs */");
    expect(result.rows).toHaveLength(1);
    expect(notices.at(-1)).toMatch(/truncated to the first 1 rows: the byte limit \(NLQ_RESULT_BYTE_LIMIT\)/);
  }, 60_000);

  it("cancels the statement: a million 100 MB rows return at the cap", async () => {
    sql = "SELECT repeat('x', 100000000) AS blob FROM generate_series(1, 1000000)";
    const { result } = await ask("/* nl: endless blobs */");
    expect(result.rows).toHaveLength(1);
  }, 60_000);
});
