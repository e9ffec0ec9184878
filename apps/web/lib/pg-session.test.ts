import { CancelledError, ConfigurationError, type QueryExecutor } from "@nlq/engine";
import type pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createWebPool, openPoolSession } from "./pg-session";
import { DatabaseConnectionError } from "./web-errors";
import { loadWebSettings } from "./web-settings";

const databaseUrl = process.env.NLQ_TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

/** A minimal executor so this test does not depend on core's pg adapter. */
function executorOf(client: pg.PoolClient): QueryExecutor {
  return {
    name: "test",
    async query({ sql }) {
      const result = await client.query({ text: sql, rowMode: "array" });
      return {
        fields: result.fields.map((field) => ({
          name: field.name,
          dataTypeId: field.dataTypeID,
          dataTypeSize: field.dataTypeSize,
          dataTypeModifier: field.dataTypeModifier,
          tableId: field.tableID,
          columnId: field.columnID,
        })),
        rows: result.rows.map((row: unknown[]) => row.map((value) => (value === null ? null : String(value)))),
        command: `${result.command} ${result.rowCount ?? 0}`,
      };
    },
  };
}

const pool = createWebPool({ connectionString: databaseUrl, maximumConnections: 2 });
afterAll(() => pool.end());

describe("createWebPool", () => {
  it("needs DATABASE_URL", () => {
    expect(() => createWebPool({ connectionString: loadWebSettings({}).databaseUrl })).toThrow(ConfigurationError);
  });
});

describe("openPoolSession", () => {
  it("gives each question its own backend and returns it to the pool after a success", async () => {
    const first = await openPoolSession(pool, executorOf);
    const second = await openPoolSession(pool, executorOf);
    const [firstPid, secondPid] = await Promise.all([
      first.executor.query({ sql: "select pg_backend_pid()" }),
      second.executor.query({ sql: "select pg_backend_pid()" }),
    ]);
    expect(firstPid.rows[0]?.[0]).not.toBe(secondPid.rows[0]?.[0]);
    first.release(false);
    second.release(false);
    first.release(false);
    expect(pool.totalCount).toBe(2);
    expect(pool.idleCount).toBe(2);
    const again = await openPoolSession(pool, executorOf);
    const pid = await again.executor.query({ sql: "select pg_backend_pid()" });
    expect([firstPid.rows[0]?.[0], secondPid.rows[0]?.[0]]).toContain(pid.rows[0]?.[0]);
    again.release(false);
  });

  it("discards the connection after a failure", async () => {
    const session = await openPoolSession(pool, executorOf);
    const pid = (await session.executor.query({ sql: "select pg_backend_pid()" })).rows[0]?.[0];
    const before = pool.totalCount;
    session.release(true);
    expect(pool.totalCount).toBe(before - 1);
    const next = await openPoolSession(pool, executorOf);
    expect((await next.executor.query({ sql: "select pg_backend_pid()" })).rows[0]?.[0]).not.toBe(pid);
    next.release(false);
  });

  it("refuses to open when the request is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(openPoolSession(pool, executorOf, controller.signal)).rejects.toBeInstanceOf(CancelledError);
  });

  it("reports an unreachable database as a connection error with SQLSTATE 08001", async () => {
    const unreachable = createWebPool({ connectionString: "postgresql://postgres@127.0.0.1:1/postgres" });
    try {
      const failure = await openPoolSession(unreachable, executorOf).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(DatabaseConnectionError);
      expect((failure as DatabaseConnectionError).code).toBe("08001");
    } finally {
      await unreachable.end();
    }
  });
});
