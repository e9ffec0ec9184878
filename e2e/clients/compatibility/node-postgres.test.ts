import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEMO_CUSTOMERS,
  DEMO_QUESTION,
  DEMO_SQL,
  type ScriptedDemoProxy,
  startScriptedDemoProxy,
} from "../scripted-demo-proxy";

/** node-postgres through the proxy with the demo's scripted model: simple Query and named prepared statements. */
describe("node-postgres through the proxy (scripted demo model)", () => {
  let demo: ScriptedDemoProxy;

  beforeAll(async () => {
    demo = await startScriptedDemoProxy("nlq_compat_node_pg");
  });
  afterAll(() => demo?.close());

  async function withClient(run: (client: pg.Client, notices: string[]) => Promise<void>): Promise<void> {
    const client = new pg.Client({ connectionString: demo.url });
    const notices: string[] = [];
    client.on("notice", (notice) => notices.push(notice.message ?? ""));
    await client.connect();
    try {
      await run(client, notices);
    } finally {
      await client.end();
    }
  }

  it("answers ordinary SQL and a question (simple Query) with the NOTICEs", async () => {
    demo.resetModelCalls();
    await withClient(async (client, notices) => {
      expect((await client.query("select 1 as one")).rows).toEqual([{ one: 1 }]);
      const answer = await client.query(`/* nl: ${DEMO_QUESTION} */`);
      expect(answer.rows).toEqual([{ customers: String(DEMO_CUSTOMERS) }]);
      expect(notices[0]).toBe(`nlq: ${DEMO_SQL}`);
      expect(notices[1]).toMatch(/scripted replay of recorded responses/);
    });
    expect(demo.modelCalls()).toBe(1);
  });

  it("generates a named prepared question once: later executions re-run its SQL (fresh rows, same columns)", async () => {
    demo.resetModelCalls();
    await withClient(async (client) => {
      const ask = () => client.query({ name: "customers", text: `/* nl: ${DEMO_QUESTION} */`, values: [] });
      expect((await ask()).rows).toEqual([{ customers: String(DEMO_CUSTOMERS) }]);
      await client.query("insert into customers values (100, 'Extra', null)");
      try {
        const again = await ask();
        expect(again.rows).toEqual([{ customers: String(DEMO_CUSTOMERS + 1) }]);
        expect(again.fields.map((field) => field.name)).toEqual(["customers"]);
        expect((await ask()).rowCount).toBe(1);
      } finally {
        await client.query("delete from customers where customer_id = 100");
      }
      // Ordinary prepared statements are untouched.
      expect((await client.query({ name: "plain", text: "select $1::int as value", values: [5] })).rows).toEqual([
        { value: 5 },
      ]);
    });
    expect(demo.modelCalls()).toBe(1);
  });

  it("answers a question in place among other statements of one simple Query, in order", async () => {
    demo.resetModelCalls();
    await withClient(async (client, notices) => {
      const results = (await client.query(
        `select 1 as one; select 'a;b' as text /* ; */; /* nl: ${DEMO_QUESTION} */; select $$x;y$$ as dollar`,
      )) as unknown as pg.QueryResult[];
      expect(results.map((result) => result.rows)).toEqual([
        [{ one: 1 }],
        [{ text: "a;b" }],
        [{ customers: String(DEMO_CUSTOMERS) }],
        [{ dollar: "x;y" }],
      ]);
      expect(notices[0]).toBe(`nlq: ${DEMO_SQL}`);
      expect(client.getTransactionStatus()).toBe("I");

      // The first error ends the query: nothing after it runs, and a question after it is not asked. Statements of
      // one run share an implicit transaction; the run before a question is its own (it committed here, where one
      // multi-statement query would have rolled it back).
      await client.query("create temporary table marks (n int)");
      await expect(
        client.query(
          `insert into marks values (1); /* nl: ${DEMO_QUESTION} */; insert into marks values (2); select 1 / 0; insert into marks values (3); /* nl: ${DEMO_QUESTION} */`,
        ),
      ).rejects.toMatchObject({ code: "22012" });
      expect((await client.query("select n from marks")).rows).toEqual([{ n: 1 }]);
      // COPY FROM STDIN cannot take its data while the query is held: it fails (CopyFail) instead of hanging.
      await expect(
        client.query(`/* nl: ${DEMO_QUESTION} */; copy marks from stdin; insert into marks values (4)`),
      ).rejects.toMatchObject({ code: "57014", message: expect.stringMatching(/cannot share a query/) });
      expect((await client.query("select count(*)::int as marks from marks")).rows).toEqual([{ marks: 1 }]);

      // Inside an explicit transaction the question sees the transaction's own rows, and the transaction goes on.
      const inTransaction = (await client.query(
        `begin; insert into customers values (500, 'Temporary', null); /* nl: ${DEMO_QUESTION} */`,
      )) as unknown as pg.QueryResult[];
      expect(inTransaction[2]?.rows).toEqual([{ customers: String(DEMO_CUSTOMERS + 1) }]);
      await client.query("rollback");
      expect((await client.query(`/* nl: ${DEMO_QUESTION} */`)).rows).toEqual([{ customers: String(DEMO_CUSTOMERS) }]);
    });
    expect(demo.modelCalls()).toBe(5);
  });
});
