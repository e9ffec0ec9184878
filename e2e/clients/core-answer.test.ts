import { createTestDatabase } from "@nlq/adapters/testing";
import { answerQuestion, loadSettings } from "@nlq/engine";
import { mockTextModel } from "@nlq/engine/testing";
import type { ProxyServer } from "@nlq/proxy";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientConfig, startTestProxy, upstreamPort } from "./proxy-fixture";

/**
 * The real core pipeline behind the proxy, with a MockLanguageModelV3 standing in for the language
 * model (no model is reachable here): catalog introspection, the read-only wrapping and the final
 * statement all run through the proxy's own upstream executor on the client's session.
 */
const modelAnswering = (output: { reasoning: string; sql: string }) => mockTextModel(JSON.stringify(output));

describe("the real core pipeline behind the proxy (mock language model)", () => {
  let proxy: ProxyServer;
  let database: { name: string; drop(): Promise<void> };
  let output = { reasoning: "Count the customers.", sql: "SELECT count(*) AS customers FROM customers" };
  const settings = loadSettings({ NLQ_MODEL: "test:mock" });

  beforeAll(async () => {
    database = await createTestDatabase("nlq_proxy_core");
    const setup = new pg.Client(clientConfig(database.name, upstreamPort));
    await setup.connect();
    await setup.query(
      "create table customers (id int primary key, name text not null, country char(2)); insert into customers values (1, 'Ada', 'GB'), (2, 'Blaise', 'FR')",
    );
    await setup.end();
    proxy = await startTestProxy(
      (options) =>
        answerQuestion({
          ...options,
          settings,
          resolveModel: () => ({ model: modelAnswering(output), id: "test:mock", scripted: false }),
        }),
      { progressNotices: true },
    );
  });

  afterAll(async () => {
    await proxy?.close();
    await database?.drop();
  });

  it("answers a question with rows and the generated SQL, inside and outside a transaction", async () => {
    const client = new pg.Client(clientConfig(database.name, proxy.address.port));
    const notices: string[] = [];
    client.on("notice", (notice) => notices.push(notice.message ?? ""));
    await client.connect();
    try {
      const result = await client.query("/* nl: how many customers are there? */;");
      expect(result.rows).toEqual([{ customers: "2" }]);
      // progress NOTICEs first, then the chosen SQL
      expect(notices[0]).toMatch(/^nlq: Read the schema: 1 table, 3 columns/);
      expect(notices.some((line) => /^nlq: Model call generate-candidate: test:mock, \d+ ms$/.test(line))).toBe(true);
      expect(notices.at(-1)).toBe("nlq: SELECT count(*) AS customers FROM customers");
      expect(client.getTransactionStatus()).toBe("I");

      await client.query("begin");
      await client.query("insert into customers values (3, 'Camille', 'FR')");
      const inTransaction = await client.query("/* nl: and now? */");
      expect(inTransaction.rows).toEqual([{ customers: "3" }]);
      expect(client.getTransactionStatus()).toBe("T");
      await client.query("rollback");

      output = { reasoning: "Delete them.", sql: "DELETE FROM customers" };
      const refused = (await client.query("/* nl: delete everything */").catch((error: unknown) => error)) as {
        code: string;
      };
      expect(refused.code).toMatch(/^(25006|42601)$/);
      expect((await client.query("select count(*)::int as count from customers")).rows).toEqual([{ count: 2 }]);
    } finally {
      await client.end();
    }
  });

  it("says on the wire when the core answered from a scripted replay", async () => {
    const scripted = await startTestProxy((options) =>
      answerQuestion({
        ...options,
        settings: loadSettings({
          NLQ_MODEL: "scripted:packages/engine/src/pipeline/fixtures/answer-question-model.json",
        }),
      }),
    );
    const client = new pg.Client(clientConfig(database.name, scripted.address.port));
    const notices: string[] = [];
    client.on("notice", (notice) => notices.push(notice.message ?? ""));
    await client.connect();
    try {
      const result = await client.query("/* nl: How many customers are there? */;");
      expect(result.rows).toEqual([{ customers: "2" }]);
      expect(notices[0]).toMatch(/^nlq: SELECT count\(\*\) AS customers FROM customers/);
      expect(notices[1]).toMatch(/scripted replay of recorded responses .* not a language model/);
    } finally {
      await client.end();
      await scripted.close();
    }
  });
});
