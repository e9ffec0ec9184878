import type { Answer, AnswerQuestionOptions } from "@nlq/engine";
import { loadSettings } from "@nlq/engine";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type MetadataStore, openMetadataStore } from "../metadata/open-metadata-store";
import { createPgExecutor } from "../postgres/pg-executor";
import { createTestDatabase, type TestDatabase } from "../testing/test-database";
import { BackgroundValueIndexes } from "../value-index/background-value-index";
import { withCatalogIndex } from "./with-catalog-index";

describe("withCatalogIndex on a database nothing indexed", () => {
  let database: TestDatabase;
  let store: MetadataStore;
  let client: pg.Client;

  beforeAll(async () => {
    database = await createTestDatabase(
      "nlq_with_catalog_index",
      "CREATE TABLE city (name text); INSERT INTO city VALUES ('Lisbon');",
    );
    store = await openMetadataStore({ directory: "memory://" });
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await store?.close();
    await database?.drop();
  });

  it("gives each question the retrieval selector and shares one background build per process across wrappers", async () => {
    const users = new Set<BackgroundValueIndexes>();
    const use = vi.spyOn(BackgroundValueIndexes.prototype, "use").mockImplementation(function (
      this: BackgroundValueIndexes,
    ) {
      users.add(this);
      return { status: "building" };
    });
    try {
      const selectors: Array<string | undefined> = [];
      const fakeAnswer = async (options: AnswerQuestionOptions) => {
        selectors.push(options.schemaSelector?.name);
        return {} as Answer;
      };
      const upstream = new URL(database.url);
      // As the web app does: a new wrapper per request.
      for (let request = 0; request < 2; request++) {
        const wrapped = withCatalogIndex(fakeAnswer, { store, upstreamUrl: `postgresql://${upstream.host}` });
        await wrapped({ question: "Which cities?", session: createPgExecutor(client), settings: loadSettings({}) });
      }
      expect(selectors).toEqual(["chess-retrieval", "chess-retrieval"]);
      expect(use).toHaveBeenCalledTimes(2);
      expect(users.size).toBe(1);
    } finally {
      use.mockRestore();
    }
  });
});
