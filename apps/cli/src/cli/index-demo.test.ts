import { createPgExecutor, createQuestionAnswerer, type MetadataStore, openMetadataStore } from "@nlq/adapters";
import { createTestDatabase, type TestDatabase } from "@nlq/adapters/testing";
import { loadSettings } from "@nlq/engine";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexDemoDatabase } from "./index-demo";

describe("indexDemoDatabase (what nlq start runs for the demo)", () => {
  let database: TestDatabase;
  let store: MetadataStore;

  beforeAll(async () => {
    database = await createTestDatabase(
      "nlq_index_demo",
      "CREATE TABLE stores (id integer PRIMARY KEY, city text); INSERT INTO stores VALUES (1, 'Lisbon'), (2, 'Porto');",
    );
    store = await openMetadataStore({ directory: "memory://" });
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  it("indexes the catalog and the values, so questions use the index; a second run re-indexes nothing", async () => {
    const first = await indexDemoDatabase(database.url, store);
    expect(first).toMatchObject({ tables: 1, indexed: 1 });
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const prepared = await createQuestionAnswerer({ store, url: database.url }).prepare({
        session: createPgExecutor(client),
        settings: loadSettings({}),
      });
      expect(prepared.catalog?.tables.map((table) => table.name)).toEqual(["stores"]);
    } finally {
      await client.end();
    }
    expect(await indexDemoDatabase(database.url, store)).toMatchObject({ tables: 1, indexed: 0 });
  });
});
