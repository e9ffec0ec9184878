import { randomBytes } from "node:crypto";
import type { Answer, AnswerQuestionOptions, PipelineEvent } from "@nlq/engine";
import {
  catalogCollectionName,
  createEmbeddedVectorStore,
  createOfflineEmbeddingModel,
  createStepContext,
  DEFAULT_LSH_PARAMETERS,
  loadSettings,
  schemaSelectionPresets,
} from "@nlq/engine";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ensureDataSource } from "../metadata/data-source-store";
import { type MetadataStore, openMetadataStore } from "../metadata/open-metadata-store";
import { createPgExecutor } from "../postgres/pg-executor";
import { createTestDatabase, dropTestRole, type TestDatabase } from "../testing/test-database";
import { servedDataSourceValueIndex } from "../value-index/served-value-index";
import { valueIndexLeaseHolder } from "../value-index/value-index-lease";
import { ValueIndexStore } from "../value-index/value-index-store";
import { CatalogIndexStore } from "./catalog-index-store";
import { type CatalogIndexProgress, indexCatalog } from "./index-catalog";
import { loadCatalog } from "./load-catalog";
import { prepareIndexedQuestion } from "./prepare-indexed-question";
import { createQuestionAnswerer } from "./question-answerer";

const role = `nlq_idx_reader_${randomBytes(4).toString("hex")}`;
const setup = `
CREATE TABLE singer (singer_id integer PRIMARY KEY, name text, country text);
COMMENT ON COLUMN singer.country IS 'home country';
INSERT INTO singer VALUES (1, 'Edith Piaf', 'France'), (2, 'Nina Hagen', 'Germany');
CREATE TABLE concert (concert_id integer PRIMARY KEY, singer_id integer REFERENCES singer, venue text, fee numeric);
INSERT INTO concert VALUES (10, 1, 'Olympia', 100), (11, 2, 'Tempodrom', 80);
CREATE TABLE secret (id integer PRIMARY KEY, note text);
CREATE ROLE ${role} LOGIN;
GRANT SELECT ON singer TO ${role};
GRANT SELECT (concert_id, venue) ON concert TO ${role};
ANALYZE;
`;

describe("catalog index", () => {
  let database: TestDatabase;
  let client: pg.Client;
  let store: MetadataStore;

  beforeAll(async () => {
    database = await createTestDatabase("nlq_catalog_index", setup);
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
    store = await openMetadataStore({ directory: "memory://" });
  });

  afterAll(async () => {
    await client?.end();
    await store?.close();
    await database?.drop();
    await dropTestRole(role);
  });

  it("indexes tables, statistics, descriptions, embeddings and values; re-runs touch only what changed", async () => {
    const executor = createPgExecutor(client);
    const dataSource = await ensureDataSource(store.database, { url: database.url });
    const vectorStore = createEmbeddedVectorStore();
    const embeddingModel = createOfflineEmbeddingModel();
    const common = {
      executor,
      database: store.database,
      dataSourceId: dataSource.id,
      vectorStore,
      embeddingModel,
      descriptions: {
        tables: [],
        columns: [
          { table: "concert", column: "fee", description: "artist fee in euros" },
          { table: "singer", column: "country", description: "ignored: COMMENT ON wins" },
        ],
      },
    };
    const progress: CatalogIndexProgress[] = [];
    const leaseHolders: Array<Promise<string | undefined>> = [];
    const first = await indexCatalog({
      ...common,
      onProgress: (event) => {
        progress.push(event);
        leaseHolders.push(valueIndexLeaseHolder(store.database, `data-source:${dataSource.id}`));
      },
    });
    expect(first).toEqual({ tables: 3, columns: 9, indexed: 3, unchanged: 0, removed: 0, reembedded: 0 });
    // The value index's lease is held for the whole run (no process rebuilds from half-written columns), then released,
    // and the run ends by publishing the generation every process serves.
    expect((await Promise.all(leaseHolders)).every((holder) => holder !== undefined)).toBe(true);
    expect(await valueIndexLeaseHolder(store.database, `data-source:${dataSource.id}`)).toBeUndefined();
    const served = await servedDataSourceValueIndex(store.database, dataSource.id);
    expect(served.rebuilding).toBeUndefined();
    const [france] = await served.index!.searchKeywords({ keywords: ["Frnace"], readableColumns: "all", limit: 1 });
    expect(france!.candidates[0]?.value).toBe("France");
    expect(progress.map((event) => `${event.done}/${event.total} ${event.table} ${event.status}`)).toEqual([
      "1/3 public.concert indexed",
      "2/3 public.secret indexed",
      "3/3 public.singer indexed",
    ]);
    const collection = catalogCollectionName(dataSource.id);
    expect(await vectorStore.count({ collection })).toBe(12);
    const valueIndex = await new ValueIndexStore(store.database).loadIndex(dataSource.id, DEFAULT_LSH_PARAMETERS);
    expect(valueIndex.search({ keyword: "Frnace", readableColumns: "all", limit: 1 })[0]?.value).toBe("France");

    const loaded = await loadCatalog({ store, dataSource, session: executor });
    expect(loaded.source).toBe("index");
    const concert = loaded.catalog.tables.find((table) => table.name === "concert")!;
    expect(concert.columns.map((column) => [column.name, column.comment])).toEqual([
      ["concert_id", null],
      ["singer_id", null],
      ["venue", null],
      ["fee", "artist fee in euros"],
    ]);
    expect(loaded.catalog.tables.find((table) => table.name === "singer")!.columns[2]).toMatchObject({
      comment: "home country",
      sampleValues: ["France", "Germany"],
    });

    expect(await indexCatalog(common)).toEqual({
      tables: 3,
      columns: 9,
      indexed: 0,
      unchanged: 3,
      removed: 0,
      reembedded: 0,
    });
    // Another embedder: every table's description vectors are made again (other dimensions), nothing else re-indexed.
    const otherEmbedder = createOfflineEmbeddingModel({ dimensions: 64 });
    Object.defineProperty(otherEmbedder, "modelId", { value: "hashed-ngrams-64" });
    expect(await indexCatalog({ ...common, embeddingModel: otherEmbedder })).toMatchObject({
      indexed: 0,
      unchanged: 0,
      reembedded: 3,
    });
    expect(await vectorStore.count({ collection })).toBe(12);
    const [probe] = await vectorStore.search({ collection, vector: new Array(64).fill(0.1), limit: 1 });
    expect(probe).toBeDefined();
    expect(await indexCatalog({ ...common, embeddingModel: otherEmbedder })).toMatchObject({
      unchanged: 3,
      reembedded: 0,
    });
    expect(await indexCatalog(common)).toMatchObject({ unchanged: 0, reembedded: 3 });
    await client.query("ALTER TABLE concert ADD COLUMN city text; DROP TABLE secret");
    expect(await indexCatalog(common)).toEqual({
      tables: 2,
      columns: 8,
      indexed: 1,
      unchanged: 1,
      removed: 1,
      reembedded: 0,
    });
    const valueColumns = async () =>
      (await new ValueIndexStore(store.database).listColumns(dataSource.id)).map(
        (stored) => `${stored.column.table}.${stored.column.column}`,
      );
    expect(await valueColumns()).toContain("concert.city");
    expect(await valueColumns()).not.toContain("secret.note");
    await client.query("ALTER TABLE concert DROP COLUMN city");
    expect(await indexCatalog(common)).toMatchObject({ indexed: 1, unchanged: 1 });
    expect(await valueColumns()).not.toContain("concert.city");
    expect(await vectorStore.count({ collection, filter: { table: "public.secret" } })).toBe(0);
    expect(await vectorStore.count({ collection, filter: { table: "public.concert" } })).toBe(5);
  });

  it("keeps finished tables when a run is interrupted", async () => {
    const executor = createPgExecutor(client);
    const dataSource = await ensureDataSource(store.database, { url: database.urlFor("someone_else") });
    const controller = new AbortController();
    const options = { executor, database: store.database, dataSourceId: dataSource.id, values: false };
    // Abort right after the first table is committed.
    await expect(
      indexCatalog({ ...options, abortSignal: controller.signal, onProgress: () => controller.abort() }),
    ).rejects.toThrow();
    expect(await indexCatalog(options)).toMatchObject({ indexed: 1, unchanged: 1 });
  });

  it("restricts the indexed catalog to what the asking role may read, and falls back to introspection", async () => {
    const dataSource = await ensureDataSource(store.database, { url: database.url });
    const reader = new pg.Client({ connectionString: database.urlFor(role) });
    await reader.connect();
    try {
      const session = createPgExecutor(reader);
      const loaded = await loadCatalog({ store, dataSource, session });
      expect(loaded.source).toBe("index");
      expect(
        loaded.catalog.tables.map((table) => [
          table.name,
          table.columns.map((column) => column.name),
          table.foreignKeys.length,
        ]),
      ).toEqual([
        ["concert", ["concert_id", "venue"], 0],
        ["singer", ["singer_id", "name", "country"], 0],
      ]);
      const live = await loadCatalog({ session });
      expect(live.source).toBe("introspection");
      expect(live.catalog.tables.map((table) => table.name)).toEqual(["concert", "singer"]);
    } finally {
      await reader.end();
    }
  });

  it("prepares answerQuestion options from the index: catalog and a selector using values and description vectors", async () => {
    const executor = createPgExecutor(client);
    const vectorStore = createEmbeddedVectorStore();
    const unindexed = await prepareIndexedQuestion({
      store,
      url: `${database.url}_not_indexed`,
      session: executor,
      vectorStore,
    });
    // Nothing indexed: the catalog comes from live introspection, values from retrieval on every question.
    expect(unindexed.catalog).toBeUndefined();
    expect(unindexed.schemaSelector?.name).toBe("chess-retrieval");
    const dataSource = await ensureDataSource(store.database, { url: database.url });
    await indexCatalog({
      executor,
      database: store.database,
      dataSourceId: dataSource.id,
      vectorStore,
      embeddingModel: createOfflineEmbeddingModel(),
      force: true,
    });
    const prepared = await prepareIndexedQuestion({
      store,
      url: database.url,
      session: executor,
      vectorStore,
      minimumColumns: 0,
      steps: schemaSelectionPresets.none,
    });
    expect(prepared.catalog?.tables.map((table) => table.name)).toEqual(["concert", "singer"]);
    // Indexed as postgres, asked as another role: the same database's index is found, filtered by that role.
    const reader = new pg.Client({ connectionString: database.urlFor(role) });
    await reader.connect();
    try {
      const asReader = await prepareIndexedQuestion({
        store,
        url: database.urlFor(role),
        session: createPgExecutor(reader),
        vectorStore,
        minimumColumns: 100,
      });
      expect(asReader.catalog?.tables.map((table) => table.columns.length)).toEqual([2, 3]);
      expect(asReader.schemaSelector?.name).toBe("chess-retrieval"); // shown whole, values still retrieved
    } finally {
      await reader.end();
    }
    // An unchanged index is not read again: the next question costs a stamp query, not the whole catalog.
    const catalogReads = vi.spyOn(CatalogIndexStore.prototype, "loadCatalog");
    const again = await prepareIndexedQuestion({
      store,
      url: database.url,
      session: executor,
      vectorStore,
      minimumColumns: 0,
      steps: schemaSelectionPresets.none,
    });
    expect(again.catalog).toEqual(prepared.catalog);
    expect(catalogReads).not.toHaveBeenCalled();
    const events: PipelineEvent[] = [];
    const context = createStepContext({
      question: "Which venues did singers from Frnace play?",
      settings: loadSettings({}),
      onEvent: (event) => events.push(event),
    });
    const selected = await prepared.schemaSelector!.select({ catalog: prepared.catalog!, context });
    expect(events.find((event) => event.type === "values-end")).toMatchObject({
      values: expect.arrayContaining([
        { keyword: "Frnace", table: "public.singer", column: "country", value: "France" },
      ]),
    });
    expect(selected.hint).toContain("public.singer.country = 'France'");

    // After a re-index the cached value index is reloaded: a new value becomes findable.
    await client.query("INSERT INTO singer VALUES (3, 'Amália Rodrigues', 'Portugal'); ANALYZE singer");
    await indexCatalog({
      executor,
      database: store.database,
      dataSourceId: dataSource.id,
      vectorStore,
      embeddingModel: createOfflineEmbeddingModel(),
    });
    const refreshed = await prepareIndexedQuestion({
      store,
      url: database.url,
      session: executor,
      vectorStore,
      minimumColumns: 0,
      steps: schemaSelectionPresets.none,
    });
    const portugal = await refreshed.schemaSelector!.select({
      catalog: refreshed.catalog!,
      context: createStepContext({ question: "Singers from Portugal?", settings: loadSettings({}) }),
    });
    expect(portugal.hint).toContain("public.singer.country = 'Portugal'");
    expect(catalogReads).toHaveBeenCalledTimes(1); // re-read once, after the re-index
    catalogReads.mockRestore();
  });

  it("composes answerQuestion so a server's questions, and a one-role caller's, use the index of their database", async () => {
    const seen: Array<{ source: string; tables?: number }> = [];
    const fakeAnswer = async (options: AnswerQuestionOptions) => {
      seen.push({ source: options.catalog ? "index" : "introspection", tables: options.catalog?.tables.length });
      return {} as Answer;
    };
    const upstream = new URL(database.url);
    const server = createQuestionAnswerer({
      store,
      upstreamUrl: `postgresql://${upstream.host}`,
      answerQuestion: fakeAnswer,
    });
    const oneRole = createQuestionAnswerer({ store, url: database.urlFor(role), answerQuestion: fakeAnswer });
    const reader = new pg.Client({ connectionString: database.urlFor(role) });
    await reader.connect();
    try {
      const base = { question: "How many singers?", settings: loadSettings({}) };
      await server.answer({ ...base, session: createPgExecutor(reader) });
      await server.answer({ ...base, session: createPgExecutor(reader), transactionStatus: "failed" });
      await oneRole.answer({ ...base, session: createPgExecutor(reader) });
    } finally {
      await reader.end();
    }
    expect(seen).toEqual([
      { source: "index", tables: 2 },
      { source: "introspection", tables: undefined },
      { source: "index", tables: 2 },
    ]);
  });

  it("hands each question's settings to the index: NLQ_SCHEMA_SELECTION_MIN_COLUMNS decides on a selector", async () => {
    const selectors: Array<string | undefined> = [];
    const fakeAnswer = async (options: AnswerQuestionOptions) => {
      selectors.push(options.schemaSelector?.name);
      return {} as Answer;
    };
    const upstream = new URL(database.url);
    const { answer } = createQuestionAnswerer({
      store,
      upstreamUrl: `postgresql://${upstream.host}`,
      answerQuestion: fakeAnswer,
    });
    const session = createPgExecutor(client);
    await answer({ question: "How many singers?", session, settings: loadSettings({}) });
    await answer({
      question: "How many singers?",
      session,
      settings: loadSettings({ NLQ_SCHEMA_SELECTION_MIN_COLUMNS: "0", NLQ_SCHEMA_SELECTION: "none" }),
    });
    expect(selectors).toEqual(["chess-retrieval", "chess-schema-selector"]);
  });
});
