import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEMO_CUSTOMERS,
  DEMO_QUESTION,
  DEMO_SQL,
  type ScriptedDemoProxy,
  startScriptedDemoProxy,
} from "../scripted-demo-proxy";

/** postgres.js (extended protocol, named prepared statements by default) through the proxy. */
describe("postgres.js through the proxy (scripted demo model)", () => {
  let demo: ScriptedDemoProxy;

  beforeAll(async () => {
    demo = await startScriptedDemoProxy("nlq_compat_postgres_js");
  });
  afterAll(() => demo?.close());

  it("answers ordinary SQL and a question, prepared once however often it runs", async () => {
    const notices: string[] = [];
    const sql = postgres(demo.url, { onnotice: (notice) => notices.push(String(notice.message)), max: 1 });
    try {
      expect(await sql`select ${2}::int as two`).toEqual([{ two: 2 }]);
      demo.resetModelCalls();
      // A tagged template goes through the extended protocol as a named prepared statement (postgres.js's default).
      const ask = () => sql`/* nl: how many customers are there? */`;
      const first = await ask();
      expect([...first]).toEqual([{ customers: String(DEMO_CUSTOMERS) }]);
      expect(first.columns.map((column) => column.name)).toEqual(["customers"]);
      expect(notices).toContain(`nlq: ${DEMO_SQL}`);
      await sql`insert into customers values (200, 'Extra', null)`;
      try {
        expect([...(await ask())]).toEqual([{ customers: String(DEMO_CUSTOMERS + 1) }]);
      } finally {
        await sql`delete from customers where customer_id = 200`;
      }
      expect(demo.modelCalls()).toBe(1);
      // Without parameters, unsafe() sends a simple Query: a new question each time.
      expect([...(await sql.unsafe(`/* nl: ${DEMO_QUESTION} */`))]).toEqual([{ customers: String(DEMO_CUSTOMERS) }]);
      expect(demo.modelCalls()).toBe(2);
      expect(await sql`select ${"still fine"}::text as status`).toEqual([{ status: "still fine" }]);
    } finally {
      await sql.end();
    }
  });
});
