import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEMO_CUSTOMERS,
  DEMO_QUESTION,
  DEMO_SQL,
  type ScriptedDemoProxy,
  startScriptedDemoProxy,
} from "../scripted-demo-proxy";
import { runProgram } from "./run-program";

/** psycopg2 (Debian's python3-psycopg2 under the system /usr/bin/python3; `.ci/run` installs it) sends every statement as a simple Query. */
const script = `
import json, sys
import psycopg2
connection = psycopg2.connect(sys.argv[1])
cursor = connection.cursor()
cursor.execute("select 1 as one")
plain = cursor.fetchall()
cursor.execute("/* nl: ${DEMO_QUESTION} */")
columns = [column.name for column in cursor.description]
rows = cursor.fetchall()
connection.rollback()
print(json.dumps({"plain": plain, "columns": columns, "rows": rows, "notices": connection.notices}))
`;

describe("psycopg2 through the proxy (scripted demo model)", () => {
  let demo: ScriptedDemoProxy;

  beforeAll(async () => {
    demo = await startScriptedDemoProxy("nlq_compat_psycopg");
  });
  afterAll(() => demo?.close());

  it("answers ordinary SQL and a question inside psycopg2's implicit transaction, with the NOTICEs", async () => {
    const run = await runProgram("/usr/bin/python3", ["-c", script, demo.url]);
    expect(run.stderr).toBe("");
    expect(run.exitCode).toBe(0);
    const output = JSON.parse(run.stdout) as { plain: unknown; columns: string[]; rows: unknown; notices: string[] };
    expect(output.plain).toEqual([[1]]);
    expect(output.columns).toEqual(["customers"]);
    expect(output.rows).toEqual([[DEMO_CUSTOMERS]]);
    expect(output.notices[0]).toMatch(new RegExp(`^NOTICE:  nlq: ${DEMO_SQL.replace(/[()*]/g, "\\$&")}`));
    expect(output.notices.some((notice) => notice.includes("scripted replay"))).toBe(true);
    expect(demo.modelCalls()).toBe(1);
  });
});
