import { randomBytes } from "node:crypto";
import { createPgExecutor } from "@nlq/adapters";
import { createTestDatabase, dropTestRole, type TestDatabase } from "@nlq/adapters/testing";
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { QueryResult } from "./query-executor";
import {
  describeResidue,
  firstRow,
  newResidue,
  parseResidue,
  resetResidue,
  resetStatements,
  residueSql,
  type SessionResidue,
} from "./session-residue";

const empty: SessionResidue = {
  advisoryLocks: [],
  preparedStatements: [],
  temporaryRelations: [],
  dblinkConnections: [],
};

describe("session residue (pure)", () => {
  it("parses the JSON cells and keeps only what is new", () => {
    const before = parseResidue(['["0:7:1:ExclusiveLock"]', '["mine"]', null, '["own"]']);
    const after = parseResidue([
      '["0:7:1:ExclusiveLock", "0:7020:1:ExclusiveLock"]',
      '["mine", "left"]',
      '["16384"]',
      '["own", "open"]',
    ]);
    expect(newResidue(before, after)).toEqual({
      advisoryLocks: ["0:7020:1:ExclusiveLock"],
      preparedStatements: ["left"],
      temporaryRelations: ["16384"],
      dblinkConnections: ["open"],
    });
    expect(newResidue(after, after)).toEqual(empty);
  });

  it("names advisory keys as the SQL that took them: one bigint (objsubid 1) or two integers (objsubid 2)", () => {
    const residue = {
      ...empty,
      // -5000000000 is classid 4294967294, objid 3589934592; (3, -4) is classid 3, objid 4294967292.
      advisoryLocks: ["4294967294:3589934592:1:ExclusiveLock", "3:4294967292:2:ShareLock"],
    };
    expect(describeResidue(residue)).toEqual(["advisory lock -5000000000", "advisory lock (3, -4)"]);
    const statements = resetStatements(residue, null);
    expect(statements[0]).toContain("pg_catalog.pg_advisory_unlock(-5000000000::bigint)");
    expect(statements[1]).toContain("pg_catalog.pg_advisory_unlock_shared(3, -4)");
  });

  it("disconnects dblink connections by name in dblink's schema and deallocates with quoted names", () => {
    const residue = { ...empty, dblinkConnections: ["it's"], preparedStatements: ['odd "name"'] };
    expect(resetStatements(residue, "ext schema")).toEqual([
      `SELECT "ext schema".dblink_disconnect('it''s')`,
      `DEALLOCATE "odd ""name"""`,
    ]);
  });

  it("writes a dblink name holding a backslash as an E'' literal, so standard_conforming_strings = off cannot end it", () => {
    const residue = { ...empty, dblinkConnections: ["x\\'); SELECT 1; --"] };
    expect(resetStatements(residue, "public")).toEqual([
      `SELECT "public".dblink_disconnect(E'x\\\\''); SELECT 1; --')`,
    ]);
  });
});

describe("resetResidue on a real session: new temporary relations are dropped like any other residue", () => {
  let database: TestDatabase;
  let client: pg.Client;
  let control: (sql: string) => Promise<QueryResult>;
  const value = async (sql: string) => (await control(sql)).rows[0]?.[0];
  const readResidue = async () => parseResidue(firstRow(await control(residueSql(null))));
  const createMany = [
    "CREATE TEMP TABLE made (id serial PRIMARY KEY, name text)",
    "CREATE INDEX made_name ON made (name)",
    "CREATE TEMP VIEW made_view AS SELECT id FROM made",
    "CREATE TEMP VIEW made_view_view AS SELECT id FROM made_view",
    "CREATE TEMP SEQUENCE made_sequence",
    "CREATE TEMP TABLE made_parts (n integer) PARTITION BY RANGE (n)",
    "CREATE TEMP TABLE made_part PARTITION OF made_parts FOR VALUES FROM (0) TO (10)",
    "CREATE TEMP TABLE made_on_commit (n integer) ON COMMIT DELETE ROWS",
    "CREATE TYPE pg_temp.made_type AS (n integer)",
  ];

  beforeAll(async () => {
    database = await createTestDatabase("nlq_residue_reset");
  });
  afterAll(async () => {
    await database?.drop();
  });
  beforeEach(async () => {
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const session = createPgExecutor(client);
    control = (sql) => session.query({ sql });
  });
  afterEach(async () => {
    await client.end();
  });

  it("idle: drops every new relation kind (and releases a new lock) in a committed transaction, keeping the session's own", async () => {
    await control("CREATE TEMP TABLE kept (n integer)");
    await control("INSERT INTO kept VALUES (1)");
    const before = await readResidue();
    for (const sql of createMany) await control(sql);
    await control("SELECT pg_advisory_lock(41)");
    const left = newResidue(before, await readResidue());
    expect(left.temporaryRelations.length).toBeGreaterThanOrEqual(createMany.length);
    expect(await resetResidue(control, left, null, true)).toBe(true);
    expect(await readResidue()).toEqual(before);
    expect(await value("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()")).toBe(
      "0",
    );
    expect(await value("SELECT count(*) FROM kept")).toBe("1");
    // The session is idle again: no transaction was left open.
    await expect(control("SAVEPOINT probe")).rejects.toMatchObject({ code: "25P01" });
  });

  it("in the user's transaction: drops them inside it and leaves it open, its own ON COMMIT DROP table intact", async () => {
    await control("BEGIN");
    await control("CREATE TEMP TABLE mine (n integer) ON COMMIT DROP");
    await control("INSERT INTO mine VALUES (7)");
    const before = await readResidue();
    await control("CREATE TEMP TABLE left_behind (n integer)");
    await control("CREATE TEMP VIEW left_view AS SELECT n FROM left_behind");
    const left = newResidue(before, await readResidue());
    expect(await resetResidue(control, left, null, false)).toBe(true);
    expect(
      await value("SELECT to_regclass('pg_temp.left_behind') IS NULL AND to_regclass('pg_temp.left_view') IS NULL"),
    ).toBe("t");
    expect(await value("SELECT sum(n) FROM mine")).toBe("7");
    await control("COMMIT");
    expect(await value("SELECT to_regclass('pg_temp.mine') IS NULL")).toBe("t");
  });

  it("leaves the user's transaction usable when a statement of the drop fails (the error is rethrown)", async () => {
    await control("BEGIN");
    await control("CREATE TEMP TABLE mine (n integer)");
    await control("INSERT INTO mine VALUES (7)");
    const before = await readResidue();
    await control("CREATE TEMP TABLE left_behind (n integer)");
    const left = newResidue(before, await readResidue());
    // The statement reading which relations are left fails on the session, as a cancelled one would.
    const failing = (sql: string) => control(sql.includes("c.relkind") ? "SELECT 1 / 0" : sql);
    await expect(resetResidue(failing, left, null, false)).rejects.toMatchObject({ code: "22012" });
    expect(await value("SELECT sum(n) FROM mine")).toBe("7");
    expect(await value("SELECT to_regclass('pg_temp.left_behind') IS NOT NULL")).toBe("t");
    await control("COMMIT");
    expect(await value("SELECT count(*) FROM mine")).toBe("1");
  });

  it("idle: a failing drop is rolled back and leaves no transaction open", async () => {
    const before = await readResidue();
    await control("CREATE TEMP TABLE left_behind (n integer)");
    const left = newResidue(before, await readResidue());
    const failing = (sql: string) => control(sql.includes("c.relkind") ? "SELECT 1 / 0" : sql);
    await expect(resetResidue(failing, left, null, true)).rejects.toMatchObject({ code: "22012" });
    await expect(control("SAVEPOINT probe")).rejects.toMatchObject({ code: "25P01" });
  });

  it("reports false when the session's role cannot drop one (a SECURITY DEFINER function's table in pg_temp)", async () => {
    const suffix = randomBytes(4).toString("hex");
    const asker = `nlq_residue_asker_${suffix}`;
    const definer = `nlq_residue_definer_${suffix}`;
    await control(`CREATE ROLE ${asker} LOGIN`);
    await control(`CREATE ROLE ${definer}`);
    await control(`GRANT TEMP ON DATABASE ${database.name} TO ${definer}`);
    await control(
      `CREATE FUNCTION plant() RETURNS void LANGUAGE plpgsql SECURITY DEFINER AS $$ BEGIN CREATE TABLE pg_temp.planted (n integer); END $$`,
    );
    await control(`ALTER FUNCTION plant() OWNER TO ${definer}`);
    const limited = new pg.Client({ connectionString: database.urlFor(asker) });
    await limited.connect();
    try {
      const session = createPgExecutor(limited);
      const asAsker = (sql: string) => session.query({ sql });
      const before = parseResidue(firstRow(await asAsker(residueSql(null))));
      await asAsker("SELECT plant()");
      const left = newResidue(before, parseResidue(firstRow(await asAsker(residueSql(null)))));
      expect(left.temporaryRelations).toHaveLength(1);
      expect(await resetResidue(asAsker, left, null, true)).toBe(false);
      await expect(asAsker("SAVEPOINT probe")).rejects.toMatchObject({ code: "25P01" });
    } finally {
      await limited.end();
      await control("DROP FUNCTION plant()");
      await dropTestRole(asker);
      await control(`REVOKE TEMP ON DATABASE ${database.name} FROM ${definer}`);
      await dropTestRole(definer);
    }
  });
});
