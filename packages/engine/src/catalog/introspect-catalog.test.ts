import { randomBytes } from "node:crypto";
import { createPgExecutor } from "@nlq/adapters";
import { createTestDatabase, dropTestRole, type TestDatabase } from "@nlq/adapters/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runReadOnly } from "../database/read-only-session";
import { introspectCatalog } from "./introspect-catalog";

const role = `nlq_catalog_reader_${randomBytes(4).toString("hex")}`;
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase(
    "nlq_catalog",
    `CREATE SCHEMA sales;
     CREATE TABLE public.customers (id integer PRIMARY KEY, name text NOT NULL, secret text);
     COMMENT ON TABLE public.customers IS 'People who buy things';
     COMMENT ON COLUMN public.customers.name IS 'Full name';
     CREATE TABLE sales.orders (id bigint PRIMARY KEY, customer_id integer REFERENCES public.customers (id), total numeric(10,2), placed_at timestamptz);
     CREATE TYPE public.grade AS ENUM ('junior', 'senior', 'lead');
     CREATE TABLE public.salaries (id integer PRIMARY KEY, amount integer, level public.grade);
     CREATE VIEW sales.big_orders AS SELECT id, total FROM sales.orders WHERE total > 100;
     CREATE ROLE ${role} LOGIN;
     GRANT USAGE ON SCHEMA sales TO ${role};
     GRANT SELECT (id, name) ON public.customers TO ${role};
     GRANT SELECT ON sales.orders, sales.big_orders TO ${role};`,
  );
});
afterAll(async () => {
  await database?.drop();
  await dropTestRole(role);
});

async function introspectAs(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const session = createPgExecutor(client);
    return await runReadOnly({ session, statementTimeoutMilliseconds: 5_000 }, introspectCatalog);
  } finally {
    await client.end();
  }
}

describe("introspectCatalog", () => {
  it("reads tables, views, columns, keys and comments", async () => {
    const catalog = await introspectAs(database.url);
    expect(catalog.tables.map((table) => `${table.schema}.${table.name}:${table.kind}`)).toEqual([
      "public.customers:table",
      "public.salaries:table",
      "sales.big_orders:view",
      "sales.orders:table",
    ]);
    expect(catalog.tables[0]).toEqual({
      schema: "public",
      name: "customers",
      kind: "table",
      comment: "People who buy things",
      columns: [
        { name: "id", dataType: "integer", nullable: false, comment: null },
        { name: "name", dataType: "text", nullable: false, comment: "Full name" },
        { name: "secret", dataType: "text", nullable: true, comment: null },
      ],
      primaryKey: ["id"],
      foreignKeys: [],
    });
    expect(catalog.tables[1]?.columns[2]).toEqual({
      name: "level",
      dataType: "grade",
      nullable: true,
      comment: null,
      enumValues: ["junior", "senior", "lead"],
    });
    expect(catalog.tables[3]?.columns.map((column) => column.dataType)).toEqual([
      "bigint",
      "integer",
      "numeric(10,2)",
      "timestamp with time zone",
    ]);
    expect(catalog.tables[3]?.foreignKeys).toEqual([
      {
        name: "orders_customer_id_fkey",
        columns: ["customer_id"],
        referencedSchema: "public",
        referencedTable: "customers",
        referencedColumns: ["id"],
      },
    ]);
  });

  it("shows a restricted role only what it may read", async () => {
    const catalog = await introspectAs(database.urlFor(role));
    expect(catalog.tables.map((table) => `${table.schema}.${table.name}`)).toEqual([
      "public.customers",
      "sales.big_orders",
      "sales.orders",
    ]);
    expect(catalog.tables[0]?.columns.map((column) => column.name)).toEqual(["id", "name"]);
    expect(catalog.tables[2]?.foreignKeys).toHaveLength(1);
  });
});
