import { createPgExecutor } from "@nlq/adapters";
import { createTestDatabase, type TestDatabase } from "@nlq/adapters/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { introspectCatalog } from "../catalog/introspect-catalog";
import { runReadOnly } from "../database/read-only-session";
import { sharedFunctionPolicyCache } from "../sql/function-policy-cache";
import { renderSchema } from "./render-schema";
import { fetchSampleValues } from "./sample-values";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase(
    "nlq_samples",
    `CREATE TABLE cities (id integer PRIMARY KEY, name text, "Region" varchar(20), population integer);
     INSERT INTO cities VALUES (1, 'Paris', 'IDF', 2100000), (2, 'Lyon', NULL, 520000), (3, 'Paris', 'IDF', 1),
       (4, 'A very long city name that goes on and on and on', 'ARA', 5), (5, 'Nice', 'PACA', 340000);
     CREATE VIEW broken AS SELECT (1 / (id - id))::text AS label FROM cities;
     CREATE VIEW slow AS SELECT 'late'::text AS label FROM pg_sleep(30);
     CREATE SCHEMA locks;
     CREATE VIEW locks.locking AS SELECT pg_advisory_lock(7003)::text AS label;
     CREATE MATERIALIZED VIEW locks.stored AS SELECT 'kept'::text AS label;
     CREATE TABLE locks.parted (label text) PARTITION BY LIST (label);
     CREATE TABLE locks.parted_a PARTITION OF locks.parted FOR VALUES IN ('partitioned row');
     INSERT INTO locks.parted VALUES ('partitioned row');`,
  );
});
afterAll(async () => {
  await database?.drop();
});

describe("fetchSampleValues", () => {
  it("samples ordinary and partitioned tables only: a view's body never runs in the asking session (issue 17)", async () => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const session = createPgExecutor(client);
      const catalog = await runReadOnly({ session, statementTimeoutMilliseconds: 5_000 }, async (query) => {
        const all = await introspectCatalog(query);
        return fetchSampleValues(query, { tables: all.tables.filter((table) => table.schema === "locks") });
      });
      const examples = Object.fromEntries(
        catalog.tables.map((table) => [table.name, table.columns[0]?.sampleValues ?? null]),
      );
      expect(examples).toEqual({ locking: null, parted: ["partitioned row"], stored: null });
      const locks = await client.query(
        "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()",
      );
      expect(locks.rows[0].n).toBe(0);
    } finally {
      await client.end();
    }
  });

  it("adds distinct, capped examples to text columns and skips tables that fail", async () => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const session = createPgExecutor(client);
      const started = Date.now();
      const catalog = await runReadOnly({ session, statementTimeoutMilliseconds: 5_000 }, async (query) => {
        const all = await introspectCatalog(query);
        const publicTables = { tables: all.tables.filter((table) => table.schema === "public") };
        const sampled = await fetchSampleValues(query, publicTables, {
          valuesPerColumn: 3,
          maxValueLength: 20,
          timeoutMilliseconds: 200,
        });
        expect((await query("SHOW statement_timeout")).rows).toEqual([["5s"]]);
        return sampled;
      });
      // Views are never sampled (the slow one would sleep 30 s).
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(renderSchema(catalog)).toMatchInlineSnapshot(`
        "CREATE VIEW broken (
          label text
        );

        CREATE TABLE cities (
          id integer NOT NULL,
          name text, -- examples: 'Paris', 'Lyon', 'A very long city nam…'
          "Region" character varying(20), -- examples: 'IDF', 'ARA', 'PACA'
          population integer,
          PRIMARY KEY (id)
        );

        CREATE VIEW slow (
          label text
        );"
      `);
      expect((await session.query({ sql: "SELECT 1" })).rows).toEqual([["1"]]);
    } finally {
      await client.end();
    }
  });

  it("reads every table in one statement, and table by table when that fails (one table unreadable)", async () => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const session = createPgExecutor(client);
      await client.query(
        "CREATE TABLE IF NOT EXISTS towns (name text); TRUNCATE towns; INSERT INTO towns VALUES ('Brest')",
      );
      const sent: string[] = [];
      const tables = (all: Awaited<ReturnType<typeof introspectCatalog>>, names: string[]) => ({
        tables: all.tables.filter((table) => table.schema === "public" && names.includes(table.name)),
      });
      const catalog = await runReadOnly({ session, statementTimeoutMilliseconds: 5_000 }, async (query) => {
        const all = await introspectCatalog(query);
        // The question's policy, loaded before: only the sample reads are counted.
        const policy = await sharedFunctionPolicyCache.load(query);
        return fetchSampleValues(
          (sql) => {
            sent.push(sql);
            return query(sql);
          },
          tables(all, ["cities", "towns"]),
          { policy },
        );
      });
      expect(sent.filter((sql) => sql.includes(" FROM "))).toHaveLength(1);
      expect(renderSchema(catalog)).toContain("-- examples: 'Brest'");
      expect(renderSchema(catalog)).toContain(
        "-- examples: 'Paris', 'Lyon', 'A very long city name that goes on and o…'",
      );

      // A table whose read fails (here: dropped between introspection and sampling) loses only its own examples.
      const failing = await runReadOnly({ session, statementTimeoutMilliseconds: 5_000 }, async (query) => {
        const all = await introspectCatalog(query);
        const chosen = tables(all, ["cities", "towns"]);
        return fetchSampleValues(query, {
          tables: chosen.tables.map((table) => (table.name === "towns" ? { ...table, name: "towns_gone" } : table)),
        });
      });
      expect(renderSchema(failing)).toContain("-- examples: 'Paris', 'Lyon'");
      expect(renderSchema(failing)).not.toContain("Brest");
    } finally {
      await client.query("DROP TABLE IF EXISTS towns");
      await client.end();
    }
  });
});
