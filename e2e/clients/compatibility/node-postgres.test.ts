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
});
