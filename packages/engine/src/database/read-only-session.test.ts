import { randomBytes } from "node:crypto";
import { createPgExecutor } from "@nlq/adapters";
import { createTestDatabase, dropTestRole, type TestDatabase } from "@nlq/adapters/testing";
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ClientEncodingError, DatabaseError, SessionResidueError } from "../errors/database-errors";
import type { QueryExecutor } from "./query-executor";
import { queryWithRowLimit, runReadOnly } from "./read-only-session";

let database: TestDatabase;
let client: pg.Client;
let session: QueryExecutor;

beforeAll(async () => {
  database = await createTestDatabase(
    "nlq_read_only",
    "CREATE EXTENSION dblink; CREATE TABLE items (id integer PRIMARY KEY, name text); INSERT INTO items SELECT g, 'item ' || g FROM generate_series(1, 5) g;",
  );
});
afterAll(async () => {
  await database?.drop();
});
beforeEach(async () => {
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
  session = createPgExecutor(client);
});
afterEach(async () => {
  await client.end();
});

const scope = { statementTimeoutMilliseconds: 2_000 };
const value = async (sql: string) => (await session.query({ sql })).rows[0]?.[0];

describe("runReadOnly on an idle session", () => {
  it("runs queries and leaves no transaction and no settings behind", async () => {
    const before = await value("SHOW statement_timeout");
    const rows = await runReadOnly({ session, ...scope }, async (query) => {
      expect((await query("SHOW transaction_read_only")).rows[0]?.[0]).toBe("on");
      expect((await query("SHOW statement_timeout")).rows[0]?.[0]).toBe("2s");
      return (await query("SELECT count(*) FROM items")).rows;
    });
    expect(rows).toEqual([["5"]]);
    expect(await value("SHOW statement_timeout")).toBe(before);
    await expect(session.query({ sql: "SAVEPOINT probe" })).rejects.toMatchObject({ code: "25P01" });
  });

  it("sets standard_conforming_strings on inside the scope only, as the validator lexes", async () => {
    await session.query({ sql: "SET standard_conforming_strings = off" });
    const inside = await runReadOnly({ session, ...scope }, async (query) => {
      return (await query("SELECT '\\' AS backslash, current_setting('standard_conforming_strings')")).rows[0];
    });
    expect(inside).toEqual(["\\", "on"]);
    expect(await value("SHOW standard_conforming_strings")).toBe("off");
  });

  it("refuses a session whose client_encoding is not UTF8 or SQL_ASCII, leaving it as it was", async () => {
    await session.query({ sql: "SET client_encoding = 'LATIN1'" });
    const attempt = runReadOnly({ session, ...scope }, (query) => query("SELECT 1"));
    await expect(attempt).rejects.toBeInstanceOf(ClientEncodingError);
    await expect(attempt).rejects.toMatchObject({ code: "0A000", encoding: "LATIN1" });
    expect(await value("SHOW transaction_read_only")).toBe("off");
    await session.query({ sql: "SET client_encoding = 'SQL_ASCII'" });
    expect(await runReadOnly({ session, ...scope }, async (query) => (await query("SELECT 1")).rows)).toEqual([["1"]]);
    await session.query({ sql: "SET client_encoding = 'UTF8'" });
  });

  it("lets PostgreSQL refuse a write even without validation", async () => {
    const attempt = runReadOnly({ session, ...scope }, (query) => query("INSERT INTO items VALUES (99, 'x')"));
    await expect(attempt).rejects.toBeInstanceOf(DatabaseError);
    await expect(attempt).rejects.toMatchObject({ code: "25006" });
    expect(await value("SELECT count(*) FROM items")).toBe("5");
  });

  it("applies the statement timeout", async () => {
    const attempt = runReadOnly({ session, statementTimeoutMilliseconds: 100 }, (query) => query("SELECT pg_sleep(5)"));
    await expect(attempt).rejects.toMatchObject({ code: "57014" });
    expect(await value("SELECT 1")).toBe("1");
  });
});

describe("runReadOnly inside the user's transaction", () => {
  it("keeps the transaction, its temp tables, settings and writes intact, even after a failing query", async () => {
    await session.query({ sql: "BEGIN" });
    await session.query({ sql: "CREATE TEMP TABLE scratch (n integer)" });
    await session.query({ sql: "INSERT INTO scratch VALUES (1)" });
    await session.query({ sql: "SET LOCAL statement_timeout = 12345" });
    await session.query({ sql: "SET LOCAL work_mem = '7MB'" });
    const ok = await runReadOnly({ session, transactionStatus: "in-transaction", ...scope }, async (query) => {
      expect((await query("SHOW transaction_read_only")).rows[0]?.[0]).toBe("on");
      return (await query("SELECT count(*) FROM scratch")).rows[0]?.[0];
    });
    expect(ok).toBe("1");
    const failing = runReadOnly({ session, transactionStatus: "in-transaction", ...scope }, (query) =>
      query("SELECT * FROM missing_table"),
    );
    await expect(failing).rejects.toMatchObject({ code: "42P01" });
    const write = runReadOnly({ session, transactionStatus: "in-transaction", ...scope }, (query) =>
      query("INSERT INTO items VALUES (99, 'x')"),
    );
    await expect(write).rejects.toMatchObject({ code: "25006" });
    // PostgreSQL lets read-only transactions write temporary tables; the savepoint rollback undoes it.
    await runReadOnly({ session, transactionStatus: "in-transaction", ...scope }, (query) =>
      query("INSERT INTO scratch VALUES (2)"),
    );
    expect(await value("SHOW transaction_read_only")).toBe("off");
    expect(await value("SHOW statement_timeout")).toBe("12345ms");
    expect(await value("SHOW work_mem")).toBe("7MB");
    await session.query({ sql: "INSERT INTO scratch VALUES (3)" });
    expect(await value("SELECT string_agg(n::text, ',' ORDER BY n) FROM scratch")).toBe("1,3");
    await session.query({ sql: "COMMIT" });
    expect(await value("SELECT count(*) FROM scratch")).toBe("2");
  });

  it("refuses a failed transaction with 25P02", async () => {
    await session.query({ sql: "BEGIN" });
    await expect(session.query({ sql: "SELECT 1/0" })).rejects.toMatchObject({ code: "22012" });
    const attempt = runReadOnly({ session, transactionStatus: "failed", ...scope }, (query) => query("SELECT 1"));
    await expect(attempt).rejects.toMatchObject({
      code: "25P02",
      message: "current transaction is aborted, commands ignored until end of transaction block",
    });
    await session.query({ sql: "ROLLBACK" });
  });
});

describe("runReadOnly resets what a rollback cannot undo (issue 17)", () => {
  const advisoryLocks = async () =>
    (
      await session.query({
        sql: "SELECT coalesce(string_agg(concat_ws(':', classid, objid, objsubid, mode), ',' ORDER BY objid), '') FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()",
      })
    ).rows[0]?.[0];

  it("releases a new session advisory lock (however often taken) and refuses the result, keeping the session's own", async () => {
    await session.query({ sql: "SELECT pg_advisory_lock(7)" });
    const held = await advisoryLocks();
    const reported: string[][] = [];
    const attempt = runReadOnly(
      { session, ...scope, onSessionResidue: (residue) => reported.push([...residue].sort()) },
      async (query) => {
        await query("SELECT (7020::bigint).pg_advisory_lock, pg_advisory_lock(7020), pg_advisory_lock(-5000000000)");
        await query("SELECT pg_advisory_lock_shared(3, -4)");
        return (await query("SELECT 1")).rows;
      },
    );
    await expect(attempt).rejects.toBeInstanceOf(SessionResidueError);
    await expect(attempt).rejects.toMatchObject({ code: "25006", reset: true });
    expect(reported).toEqual([["advisory lock (3, -4)", "advisory lock -5000000000", "advisory lock 7020"]]);
    expect(await advisoryLocks()).toBe(held);
    expect(await value("SELECT pg_advisory_unlock(7)")).toBe("t");
  });

  it("closes a new dblink connection and deallocates a new prepared statement, keeping the session's own", async () => {
    await session.query({ sql: "SELECT dblink_connect_u('mine', 'dbname=postgres')" });
    await session.query({ sql: "PREPARE mine AS SELECT 1" });
    const attempt = runReadOnly({ session, ...scope }, async (query) => {
      await query("SELECT dblink_connect_u('left_open', 'dbname=postgres')");
      await query("PREPARE left_behind AS SELECT 2");
    });
    await expect(attempt).rejects.toThrow(
      /left session state behind \(dblink connection left_open, prepared statement left_behind\); nlq reset it/,
    );
    expect(await value("SELECT array_to_string(dblink_get_connections(), ',')")).toBe("mine");
    expect(await value("SELECT string_agg(name, ',') FROM pg_prepared_statements")).toBe("mine");
    await session.query({ sql: "SELECT dblink_disconnect('mine')" });
  });

  it("resets inside the user's transaction without disturbing it, and leaves ordinary scopes alone", async () => {
    await session.query({ sql: "BEGIN" });
    await session.query({ sql: "SELECT pg_advisory_xact_lock(11)" });
    await session.query({ sql: "INSERT INTO items VALUES (100, 'mine')" });
    const relationLocks = async () =>
      value(
        "SELECT string_agg(relation::text, ',' ORDER BY relation) FROM pg_locks WHERE pid = pg_backend_pid() AND locktype = 'relation' AND relation <> 'pg_locks'::regclass",
      );
    const heldByTransaction = await relationLocks();
    await runReadOnly({ session, transactionStatus: "in-transaction", ...scope }, (query) => query("SELECT 1"));
    // Reading the residue takes catalog locks; none of them may stay in the user's transaction.
    expect(await relationLocks()).toBe(heldByTransaction);
    const attempt = runReadOnly({ session, transactionStatus: "in-transaction", ...scope }, (query) =>
      query("SELECT pg_advisory_lock(12), pg_advisory_xact_lock(13)"),
    );
    await expect(attempt).rejects.toThrow(/advisory lock 12\)/);
    expect(await advisoryLocks()).toBe("0:11:1:ExclusiveLock");
    expect(await value("SELECT name FROM items WHERE id = 100")).toBe("mine");
    await session.query({ sql: "ROLLBACK" });
    expect(await runReadOnly({ session, ...scope }, async (query) => (await query("SELECT 1")).rows)).toEqual([["1"]]);
    expect(await advisoryLocks()).toBe("");
  });
});

describe("runReadOnly for a role that may not call dblink_get_connections", () => {
  it("still runs, without reading dblink connections", async () => {
    const role = `nlq_no_dblink_${randomBytes(4).toString("hex")}`;
    await session.query({ sql: `CREATE ROLE ${role} LOGIN` });
    await session.query({ sql: "REVOKE EXECUTE ON FUNCTION dblink_get_connections() FROM PUBLIC" });
    const limited = new pg.Client({ connectionString: database.urlFor(role) });
    await limited.connect();
    try {
      const rows = await runReadOnly({ session: createPgExecutor(limited), ...scope }, async (query) => {
        return (await query("SELECT 1")).rows;
      });
      expect(rows).toEqual([["1"]]);
    } finally {
      await limited.end();
      await session.query({ sql: "GRANT EXECUTE ON FUNCTION dblink_get_connections() TO PUBLIC" });
      await dropTestRole(role);
    }
  });
});

describe("queryWithRowLimit", () => {
  it("caps rows and reports truncation, keeping order and duplicate column names", async () => {
    await runReadOnly({ session, ...scope }, async (query) => {
      const capped = await queryWithRowLimit(query, "SELECT id, id FROM items ORDER BY id DESC", 3);
      expect(capped.truncated).toBe(true);
      expect(capped.result.rows).toEqual([
        ["5", "5"],
        ["4", "4"],
        ["3", "3"],
      ]);
      const whole = await queryWithRowLimit(query, "SELECT name FROM items WHERE id = 1 -- trailing comment", 3);
      expect(whole).toMatchObject({ truncated: false, result: { rows: [["item 1"]] } });
      await expect(queryWithRowLimit(query, "SELECT nope FROM items", 3)).rejects.toMatchObject({
        code: "42703",
        sql: "SELECT nope FROM items",
      });
    });
  });
});
