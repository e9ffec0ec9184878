import { createPgExecutor } from "@nlq/adapters";
import { createTestDatabase, type TestDatabase } from "@nlq/adapters/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { introspectCatalog } from "../catalog/introspect-catalog";
import { runReadOnly } from "../database/read-only-session";
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
     CREATE VIEW slow AS SELECT 'late'::text AS label FROM pg_sleep(30);`,
  );
});
afterAll(async () => {
  await database?.drop();
});

describe("fetchSampleValues", () => {
  it("adds distinct, capped examples to text columns and skips tables that fail", async () => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const session = createPgExecutor(client);
      const started = Date.now();
      const catalog = await runReadOnly({ session, statementTimeoutMilliseconds: 5_000 }, async (query) => {
        const sampled = await fetchSampleValues(query, await introspectCatalog(query), {
          valuesPerColumn: 3,
          maxValueLength: 20,
          timeoutMilliseconds: 200,
        });
        expect((await query("SHOW statement_timeout")).rows).toEqual([["5s"]]);
        return sampled;
      });
      // The slow view sleeps 30 s: finishing well before that proves its sample query was cut by the 200 ms timeout.
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
});
