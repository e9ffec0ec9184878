import { CancelledError, DatabaseError } from "@nlq/engine";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testServerUrl } from "../testing/test-database";
import { createPgExecutor } from "./pg-executor";

let client: pg.Client;
beforeAll(async () => {
  client = new pg.Client({ connectionString: testServerUrl });
  await client.connect();
});
afterAll(async () => {
  await client.end();
});

describe("createPgExecutor", () => {
  it("returns values in PostgreSQL's text format with field metadata and the command tag", async () => {
    const executor = createPgExecutor(client);
    const result = await executor.query({
      sql: "SELECT 1.50::numeric AS amount, true AS flag, DATE '2024-02-03' AS day, NULL::int AS nothing, '{1,2}'::int[] AS list",
    });
    expect(result.rows).toEqual([["1.50", "t", "2024-02-03", null, "{1,2}"]]);
    expect(result.fields.map((field) => field.name)).toEqual(["amount", "flag", "day", "nothing", "list"]);
    expect(result.fields[1]?.dataTypeId).toBe(16);
    expect(result.command).toBe("SELECT 1");
  });

  it("maps errors to DatabaseError with SQLSTATE, detail and the SQL", async () => {
    const executor = createPgExecutor(client);
    const attempt = executor.query({ sql: "SELECT * FROM no_such_table_here" });
    await expect(attempt).rejects.toBeInstanceOf(DatabaseError);
    await expect(attempt).rejects.toMatchObject({ code: "42P01", sql: "SELECT * FROM no_such_table_here" });
  });

  it("cancels the running statement on abort", async () => {
    const executor = createPgExecutor(client);
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 200);
    await expect(executor.query({ sql: "SELECT pg_sleep(10)", abortSignal: controller.signal })).rejects.toBeInstanceOf(
      CancelledError,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await executor.query({ sql: "SELECT 2" })).rows).toEqual([["2"]]);
  });

  it("sends one extended-protocol statement: a text holding two commands is refused, not run", async () => {
    const executor = createPgExecutor(client);
    await expect(executor.query({ sql: "SELECT 1; SELECT 2" })).rejects.toMatchObject({ code: "42601" });
    expect((await executor.query({ sql: "SELECT 3" })).rows).toEqual([["3"]]);
  });

  it("keeps only the rows within the byte limit and cancels the statement", async () => {
    const executor = createPgExecutor(client);
    // A million 100 MB rows: this returns only because the statement is cancelled at the limit.
    const result = await executor.query({
      sql: "SELECT g, repeat('x', 100000000) FROM generate_series(1, 1000000) g",
      resultByteLimit: 150_000_000,
    });
    expect(result.cutByBytes).toBe(true);
    expect(result.rows.map((row) => row[0])).toEqual(["1"]);
    expect(result.rows[0]?.[1]?.length).toBe(100_000_000);
    expect((await executor.query({ sql: "SELECT 4" })).rows).toEqual([["4"]]);
  }, 60_000);
});
