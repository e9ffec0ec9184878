import { createPgExecutor } from "@nlq/adapters";
import { createTestDatabase, type TestDatabase } from "@nlq/adapters/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ordinaryTables, relationKey } from "./ordinary-tables";

const odd = String.raw`it's "odd" \ name`;
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase(
    "nlq_ordinary_tables",
    `CREATE TABLE plain (v text);
     CREATE TABLE "${odd.replaceAll('"', '""')}" (v text);
     CREATE TABLE parted (v text) PARTITION BY LIST (v);
     CREATE VIEW locking AS SELECT pg_advisory_lock(1)::text AS v;
     CREATE MATERIALIZED VIEW stored AS SELECT 'x'::text AS v;`,
  );
});
afterAll(async () => {
  await database?.drop();
});

describe("ordinaryTables", () => {
  it("names the ordinary and partitioned tables among the relations, under any standard_conforming_strings", async () => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const session = createPgExecutor(client);
      const query = async (sql: string) => session.query({ sql });
      const relations = ["plain", odd, "parted", "locking", "stored", "missing"].map((table) => ({
        schema: "public",
        table,
      }));
      const expected = new Set(["plain", odd, "parted"].map((table) => relationKey({ schema: "public", table })));
      expect(await ordinaryTables(query, relations)).toEqual(expected);
      await client.query("SET standard_conforming_strings = off");
      expect(await ordinaryTables(query, relations)).toEqual(expected);
      expect(await ordinaryTables(query, [])).toEqual(new Set());
      const locks = await client.query(
        "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()",
      );
      expect(locks.rows[0].n).toBe(0);
    } finally {
      await client.end();
    }
  });
});
