import { PGlite } from "@electric-sql/pglite";
import { createTestDatabase, type TestDatabase } from "@nlq/adapters/testing";
import { DatabaseError } from "@nlq/engine";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DemoTablesExistError } from "./demo-errors";
import { demoTableNames } from "./demo-schema";
import type { DemoDataset } from "./demo-types";
import { generateDemoDataset } from "./generate-demo-dataset";
import { loadDemoData } from "./load-demo-data";

const small = generateDemoDataset({ customerCount: 80, orderCount: 200, productCount: 40 });
const rowsOf = (dataset: DemoDataset, name: string): number =>
  dataset.tables.find((table) => table.definition.name === name)?.rows.length ?? -1;

/** The small data set with one order whose customer does not exist: the load fails on its foreign key (23503). */
function brokenDataset(): DemoDataset {
  return {
    ...small,
    tables: small.tables.map((table) =>
      table.definition.name === "orders"
        ? { ...table, rows: [...table.rows, { ...(table.rows[0] ?? {}), order_id: 999_999, customer_id: 424_242 }] }
        : table,
    ),
  };
}

describe("loadDemoData into PostgreSQL (node-postgres)", () => {
  let database: TestDatabase;
  let client: pg.Client;
  beforeAll(async () => {
    database = await createTestDatabase("nlq_demo_load");
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await database?.drop();
  });

  it("loads the full demo database into public with every row and every comment", async () => {
    const result = await loadDemoData({ url: database.url });
    expect(result.schema).toBe("public");
    expect(result.tables.map((table) => table.name)).toEqual(demoTableNames);
    expect(result.durationMilliseconds).toBeGreaterThan(0);
    for (const table of result.tables) {
      const counted = await client.query(`SELECT count(*)::int AS rows FROM public.${table.name}`);
      expect(counted.rows[0].rows, table.name).toBe(table.rows);
    }
    expect(result.totalRows).toBeGreaterThan(20_000);
    const undocumented = await client.query(
      `SELECT c.relname, a.attname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
       WHERE n.nspname = 'public' AND c.relname = ANY($1) AND col_description(c.oid, a.attnum) IS NULL`,
      [demoTableNames],
    );
    expect(undocumented.rows).toEqual([]);
    const tableComments = await client.query(
      "SELECT count(*)::int AS described FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relname = ANY($1) AND obj_description(c.oid, 'pg_class') IS NOT NULL",
      [demoTableNames],
    );
    expect(tableComments.rows[0].described).toBe(demoTableNames.length);
    const foreignKeys = await client.query(
      "SELECT count(*)::int AS keys FROM pg_constraint WHERE contype = 'f' AND connamespace = 'public'::regnamespace",
    );
    expect(foreignKeys.rows[0].keys).toBeGreaterThanOrEqual(12);
    const searchPath = await client.query("SHOW search_path");
    expect(searchPath.rows[0].search_path).toBe('"$user", public');
  });

  it("refuses with DemoTablesExistError when the tables exist, leaving the data untouched", async () => {
    const attempt = loadDemoData({ url: database.url, dataset: small });
    await expect(attempt).rejects.toBeInstanceOf(DemoTablesExistError);
    await expect(attempt).rejects.toMatchObject({ code: "42P07", schema: "public" });
    const counted = await client.query("SELECT count(*)::int AS rows FROM public.customers");
    expect(counted.rows[0].rows).toBe(1500);
  });

  it("replaces existing tables with replace: true", async () => {
    const result = await loadDemoData({ url: database.url, dataset: small, replace: true });
    expect(result.tables.find((table) => table.name === "customers")?.rows).toBe(80);
    const counted = await client.query("SELECT count(*)::int AS rows FROM public.customers");
    expect(counted.rows[0].rows).toBe(80);
  });

  it("creates another schema on demand and keeps schemas apart", async () => {
    await loadDemoData({ url: database.url, dataset: small, schema: "Shop Floor" });
    const counted = await client.query('SELECT count(*)::int AS rows FROM "Shop Floor".orders');
    expect(counted.rows[0].rows).toBe(rowsOf(small, "orders"));
  });

  it("rolls back everything when a statement fails, reporting PostgreSQL's SQLSTATE", async () => {
    const attempt = loadDemoData({ url: database.url, dataset: brokenDataset(), schema: "broken" });
    await expect(attempt).rejects.toBeInstanceOf(DatabaseError);
    await expect(attempt).rejects.toMatchObject({ code: "23503" });
    const schemas = await client.query("SELECT count(*)::int AS found FROM pg_namespace WHERE nspname = 'broken'");
    expect(schemas.rows[0].found).toBe(0);
  });

  it("reports an unreachable server as a DatabaseError", async () => {
    const url = new URL(database.url);
    url.pathname = "/nlq_demo_database_that_does_not_exist";
    await expect(loadDemoData({ url: url.toString(), dataset: small })).rejects.toMatchObject({
      name: "DatabaseError",
      code: "3D000",
    });
  });
});

describe("loadDemoData into PGlite", () => {
  it("loads into an in-memory PGlite, refuses a second load, and leaves the session's search_path alone", async () => {
    const pglite = new PGlite();
    try {
      const before = await pglite.query<{ search_path: string }>("SHOW search_path");
      const result = await loadDemoData({ pglite, dataset: small, schema: "demo" });
      expect(result.totalRows).toBe(small.tables.reduce((sum, table) => sum + table.rows.length, 0));
      const counted = await pglite.query<{ rows: number }>("SELECT count(*)::int AS rows FROM demo.order_items");
      expect(counted.rows[0]?.rows).toBe(rowsOf(small, "order_items"));
      await expect(loadDemoData({ pglite, dataset: small, schema: "demo" })).rejects.toBeInstanceOf(
        DemoTablesExistError,
      );
      const searchPath = await pglite.query<{ search_path: string }>("SHOW search_path");
      expect(searchPath.rows[0]?.search_path).toBe(before.rows[0]?.search_path);
      expect(pglite.isInTransaction()).toBe(false);

      // A failing load rolls back and leaves the instance usable.
      await expect(loadDemoData({ pglite, dataset: brokenDataset(), schema: "broken" })).rejects.toMatchObject({
        name: "DatabaseError",
        code: "23503",
      });
      expect(pglite.isInTransaction()).toBe(false);
      const schemas = await pglite.query<{ found: number }>(
        "SELECT count(*)::int AS found FROM pg_namespace WHERE nspname = 'broken'",
      );
      expect(schemas.rows[0]?.found).toBe(0);
    } finally {
      await pglite.close();
    }
  });
});
