import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureDataSource } from "../metadata/data-source-store";
import { type MetadataStore, openMetadataStore } from "../metadata/open-metadata-store";
import { createPgExecutor } from "../postgres/pg-executor";
import { createTestDatabase, type TestDatabase } from "../testing/test-database";
import { ValueIndexStore } from "../value-index/value-index-store";
import { indexCatalog } from "./index-catalog";

describe("indexCatalog and views (issue 17)", () => {
  let database: TestDatabase;
  let client: pg.Client;
  let store: MetadataStore;

  beforeAll(async () => {
    database = await createTestDatabase(
      "nlq_index_views",
      `CREATE TABLE customer (id integer PRIMARY KEY, city text);
       INSERT INTO customer VALUES (1, 'Lisbon'), (2, 'Porto');
       CREATE VIEW locking AS SELECT 'Lisbon'::text AS city FROM pg_advisory_lock(7003);
       CREATE MATERIALIZED VIEW cities AS SELECT DISTINCT city FROM customer;`,
    );
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
    store = await openMetadataStore({ directory: "memory://" });
  });

  afterAll(async () => {
    await client?.end();
    await store?.close();
    await database?.drop();
  });

  it("reads values and samples of ordinary tables only: a view's body never runs", async () => {
    const dataSource = await ensureDataSource(store.database, { url: database.url });
    await indexCatalog({ executor: createPgExecutor(client), database: store.database, dataSourceId: dataSource.id });
    const stored = await new ValueIndexStore(store.database).listColumns(dataSource.id);
    expect(stored.map((entry) => entry.column.table)).toEqual(["customer", "customer"]);
    const locks = await client.query(
      "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()",
    );
    expect(locks.rows[0].n).toBe(0);
  });
});
