import { createPgExecutor } from "@nlq/adapters";
import { createTestDatabase, type TestDatabase } from "@nlq/adapters/testing";
import { loadSettings } from "@nlq/engine";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csvField, exportCsv } from "./export-csv";
import { runEditedSql } from "./run-edited-sql";

let database: TestDatabase;
let client: pg.Client;
const settings = loadSettings({ NLQ_ROW_LIMIT: "100" });

beforeAll(async () => {
  database = await createTestDatabase(
    "nlq_web_export",
    `CREATE TABLE item (id integer PRIMARY KEY, label text);
     INSERT INTO item SELECT n, CASE WHEN n = 3 THEN 'has "quotes", comma' WHEN n = 4 THEN NULL ELSE 'item ' || n END
     FROM generate_series(1, 2500) AS n;`,
  );
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
});

afterAll(async () => {
  await client?.end();
  await database?.drop();
});

describe("csvField", () => {
  it("quotes only what needs it and writes NULL as empty", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField('say "hi", ok')).toBe('"say ""hi"", ok"');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField(null)).toBe("");
  });

  it("prefixes text that a spreadsheet would evaluate with a quote, and leaves numbers alone", () => {
    expect(csvField('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvField("+1+1")).toBe("'+1+1");
    expect(csvField("-2+3")).toBe("'-2+3");
    expect(csvField("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvField("\t=1")).toBe("'\t=1");
    expect(csvField("\r=1")).toBe(`"'\r=1"`);
    expect(csvField("a=1")).toBe("a=1");
    expect(csvField("-12.5", true)).toBe("-12.5");
    expect(csvField("-Infinity", true)).toBe("-Infinity");
  });
});

describe("runEditedSql", () => {
  it("pages the result under the row cap with the total count, read-only", async () => {
    const first = await runEditedSql({
      session: createPgExecutor(client),
      sql: "SELECT id FROM item ORDER BY id;",
      settings,
    });
    expect(first).toMatchObject({
      sql: "SELECT id FROM item ORDER BY id",
      offset: 0,
      truncated: true,
      totalRows: 2500,
    });
    expect(first.rows).toHaveLength(100);
    const last = await runEditedSql({
      session: createPgExecutor(client),
      sql: "SELECT id FROM item ORDER BY id",
      offset: 2450,
      settings,
    });
    expect(last.rows).toHaveLength(50);
    expect(last.rows[0]).toEqual(["2451"]);
    expect(last.truncated).toBe(false);
  });

  it("refuses what the pipeline refuses: writes and more than one statement", async () => {
    await expect(
      runEditedSql({ session: createPgExecutor(client), sql: "DELETE FROM item", settings }),
    ).rejects.toMatchObject({ name: "SqlValidationError" });
    await expect(
      runEditedSql({ session: createPgExecutor(client), sql: "SELECT 1; SELECT 2", settings }),
    ).rejects.toMatchObject({ name: "SqlValidationError" });
    const count = await client.query("SELECT count(*) FROM item");
    expect(count.rows[0].count).toBe("2500");
  });
});

describe("exportCsv", () => {
  it("streams the full result past the row cap as CSV and releases the session", async () => {
    const done: boolean[] = [];
    const stream = await exportCsv({
      session: createPgExecutor(client),
      sql: "SELECT id, label FROM item ORDER BY id",
      settings,
      onDone: (failed) => done.push(failed),
    });
    const text = await new Response(stream).text();
    const lines = text.split("\r\n");
    expect(lines[0]).toBe("id,label");
    expect(lines).toHaveLength(2502);
    expect(lines[3]).toBe('3,"has ""quotes"", comma"');
    expect(lines[4]).toBe("4,");
    expect(lines[2500]).toBe("2500,item 2500");
    expect(done).toEqual([false]);
    // The session is usable again: the cursor and its transaction are gone.
    expect((await client.query("SELECT count(*) FROM pg_cursors")).rows[0].count).toBe("0");
  });

  it("guards text cells and the header against formulas but keeps negative numbers as numbers", async () => {
    const stream = await exportCsv({
      session: createPgExecutor(client),
      sql: `SELECT -id AS "=delta", -id::numeric / 2 AS half, '=1+1' AS formula, '-' || label AS dashed, -1.5::float8 AS ratio
            FROM item WHERE id = 1`,
      settings,
      onDone: () => undefined,
    });
    const lines = (await new Response(stream).text()).split("\r\n");
    expect(lines[0]).toBe("'=delta,half,formula,dashed,ratio");
    expect(lines[1]).toBe("-1,-0.50000000000000000000,'=1+1,'-item 1,-1.5");
  });

  it("throws a validation error before sending anything", async () => {
    const done: boolean[] = [];
    await expect(
      exportCsv({
        session: createPgExecutor(client),
        sql: "DROP TABLE item",
        settings,
        onDone: (failed) => done.push(failed),
      }),
    ).rejects.toMatchObject({ name: "SqlValidationError" });
    expect(done).toEqual([true]);
  });
});
