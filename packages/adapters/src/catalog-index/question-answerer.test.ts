import type { Answer, AnswerQuestionOptions, LlmResponseCache, QueryLog, SchemaSelector } from "@nlq/engine";
import { loadSettings } from "@nlq/engine";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { KnowledgeStore } from "../metadata/knowledge-store";
import type { MetadataDatabase } from "../metadata/metadata-database";
import { type MetadataStore, openMetadataStore } from "../metadata/open-metadata-store";
import { VerifiedExampleStore } from "../metadata/verified-example-store";
import { createPgExecutor } from "../postgres/pg-executor";
import { createTestDatabase, dropTestRole, type TestDatabase } from "../testing/test-database";
import { BackgroundValueIndexes } from "../value-index/background-value-index";
import { connectBackground } from "../value-index/connect-background";
import { StoredBackgroundValueIndexes } from "../value-index/stored-background-value-index";
import { createQuestionAnswerer } from "./question-answerer";

// The real connectBackground, observed: which options a background build's connection is opened with.
vi.mock("../value-index/connect-background", async (importOriginal) => {
  const original = await importOriginal<typeof import("../value-index/connect-background")>();
  return { ...original, connectBackground: vi.fn(original.connectBackground) };
});

/** What the pipeline was handed, per question. */
function observingPipeline() {
  const seen: AnswerQuestionOptions[] = [];
  return {
    seen,
    answerQuestion: async (options: AnswerQuestionOptions) => {
      seen.push(options);
      return {} as Answer;
    },
  };
}

/** A metadata store whose every read fails (a store that went away under a running server). */
const brokenStore = {
  database: {
    select: () => {
      throw new Error("metadata store down");
    },
  } as unknown as MetadataDatabase,
};

describe("createQuestionAnswerer on a database nothing indexed", () => {
  let database: TestDatabase;
  let store: MetadataStore;
  let client: pg.Client;

  beforeAll(async () => {
    database = await createTestDatabase(
      "nlq_question_answerer",
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

  it("gives each question the retrieval selector and shares one stored background set per store across compositions", async () => {
    const users = new Set<StoredBackgroundValueIndexes>();
    const inMemory = vi.spyOn(BackgroundValueIndexes.prototype, "use");
    const use = vi.spyOn(StoredBackgroundValueIndexes.prototype, "use").mockImplementation(async function (
      this: StoredBackgroundValueIndexes,
    ) {
      users.add(this);
      return { status: "building" };
    });
    try {
      const pipeline = observingPipeline();
      const upstream = new URL(database.url);
      // As the web app does: a new composition per request.
      for (let request = 0; request < 2; request++) {
        const { answer } = createQuestionAnswerer({
          store,
          upstreamUrl: `postgresql://${upstream.host}`,
          backgroundValueIndexes: true,
          answerQuestion: pipeline.answerQuestion,
        });
        await answer({ question: "Which cities?", session: createPgExecutor(client), settings: loadSettings({}) });
      }
      expect(pipeline.seen.map((options) => options.schemaSelector?.name)).toEqual([
        "chess-retrieval",
        "chess-retrieval",
      ]);
      expect(use).toHaveBeenCalledTimes(2);
      expect(users.size).toBe(1);
      // With a store, nothing is built in this process's memory.
      expect(inMemory).not.toHaveBeenCalled();
    } finally {
      use.mockRestore();
      inMemory.mockRestore();
    }
  });

  it("opens the background build's connection with the asking URL and ambientCredentials as given (default off)", async () => {
    const connect = vi.mocked(connectBackground);
    const indexes = new BackgroundValueIndexes();
    const use = vi.spyOn(indexes, "use");
    for (const ambientCredentials of [undefined, true, false]) {
      connect.mockClear();
      use.mockClear();
      const { answer } = createQuestionAnswerer({
        url: database.url,
        backgroundValueIndexes: indexes,
        ...(ambientCredentials === undefined ? {} : { ambientCredentials }),
        answerQuestion: observingPipeline().answerQuestion,
      });
      await answer({ question: "Which cities?", session: createPgExecutor(client), settings: loadSettings({}) });
      const [key, open] = use.mock.calls[0] ?? [];
      if (!key || !open) throw new Error("no background build was asked for");
      await indexes.settled(key);
      await (await open()).close();
      expect(connect.mock.calls.at(-1)).toEqual([database.url, { ambientCredentials: ambientCredentials === true }]);
    }
  });

  it("never lets a server's background build take the runner's credentials, whatever it is given", async () => {
    const connect = vi.mocked(connectBackground);
    const indexes = new BackgroundValueIndexes();
    const use = vi.spyOn(indexes, "use");
    connect.mockClear();
    const upstream = new URL(database.url);
    const { answer } = createQuestionAnswerer({
      upstreamUrl: `postgresql://${upstream.host}`,
      backgroundValueIndexes: indexes,
      // Refused by the type; a caller that casts it through still gets none.
      ...({ ambientCredentials: true } as unknown as { ambientCredentials?: false }),
      answerQuestion: observingPipeline().answerQuestion,
    });
    await answer({ question: "Which cities?", session: createPgExecutor(client), settings: loadSettings({}) });
    const [key, open] = use.mock.calls[0] ?? [];
    if (!key || !open) throw new Error("no background build was asked for");
    await indexes.settled(key);
    await (await open()).close();
    expect(connect.mock.calls.at(-1)?.[1]).toEqual({ ambientCredentials: false });
  });

  it("never turns a failing index lookup into an error: the question is answered as an unindexed one", async () => {
    const upstream = new URL(database.url);
    for (const asking of [{ url: database.url }, { upstreamUrl: `postgresql://${upstream.host}` }]) {
      const pipeline = observingPipeline();
      const errors: unknown[] = [];
      const { answer } = createQuestionAnswerer({
        store: brokenStore,
        ...asking,
        onIndexError: (error) => errors.push(error),
        answerQuestion: pipeline.answerQuestion,
      });
      await answer({ question: "Which cities?", session: createPgExecutor(client), settings: loadSettings({}) });
      expect(errors.map((error) => (error as Error).message)).toEqual(["metadata store down"]);
      expect(pipeline.seen[0]?.catalog).toBeUndefined();
      expect(pipeline.seen[0]?.schemaSelector?.name).toBe("chess-retrieval");
    }
  });
});

describe("createQuestionAnswerer hands each question what was taught for its role", () => {
  const suffix = Math.random().toString(36).slice(2, 8);
  const analyst = `nlq_taught_analyst_${suffix}`;
  const stranger = `nlq_taught_stranger_${suffix}`;
  let database: TestDatabase;
  let store: MetadataStore;
  let dataSource: string;

  beforeAll(async () => {
    database = await createTestDatabase(
      "nlq_question_taught",
      `CREATE TABLE city (name text, country text); INSERT INTO city VALUES ('Lisbon', 'PT');
       CREATE TABLE salary (employee text, amount int);
       CREATE ROLE ${analyst} LOGIN; CREATE ROLE ${stranger} LOGIN;
       GRANT SELECT ON city TO ${analyst}, ${stranger};`,
    );
    store = await openMetadataStore({ directory: "memory://" });
    const url = new URL(database.url);
    dataSource = `${url.hostname}:${url.port || "5432"}/${database.name}`;
    const knowledge = new KnowledgeStore(store.database);
    const admin = { role: "postgres", administrator: true };
    await knowledge.save(
      { dataSource, kind: "term", name: "capital", text: "The city a country is governed from.", origin: "manual" },
      admin,
    );
    await knowledge.save(
      { dataSource, kind: "term", name: "mine", text: "Only the analyst's.", origin: "manual" },
      { role: analyst, administrator: false },
    );
    const examples = new VerifiedExampleStore(store.database);
    await examples.save({
      dataSource,
      question: "Which cities are there?",
      sql: "SELECT name FROM city",
      source: "admin",
      verifiedBy: "postgres",
      sharedWithAllRoles: true,
    });
    await examples.save({
      dataSource,
      question: "Which cities pay salaries?",
      sql: "SELECT employee FROM salary",
      source: "admin",
      verifiedBy: "postgres",
      sharedWithAllRoles: true,
    });
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
    await dropTestRole(analyst);
    await dropTestRole(stranger);
  });

  async function handedTo(role: string, mode: "url" | "upstream", own: Partial<AnswerQuestionOptions> = {}) {
    const client = new pg.Client({ connectionString: database.urlFor(role) });
    await client.connect();
    try {
      const pipeline = observingPipeline();
      const upstream = new URL(database.url);
      const { answer } = createQuestionAnswerer({
        store,
        ...(mode === "url" ? { url: database.urlFor(role) } : { upstreamUrl: `postgresql://${upstream.host}` }),
        answerQuestion: pipeline.answerQuestion,
      });
      await answer({
        question: "Which cities?",
        session: createPgExecutor(client),
        settings: loadSettings({}),
        ...own,
      });
      return pipeline.seen[0]!;
    } finally {
      await client.end();
    }
  }

  it("loads the role's own and the shared knowledge and the verified examples it may read, for every kind of caller", async () => {
    for (const mode of ["url", "upstream"] as const) {
      const seen = await handedTo(analyst, mode);
      expect(seen.knowledge?.map((entry) => entry.name).sort(), mode).toEqual(["capital", "mine"]);
      expect(JSON.stringify(seen.knowledge), mode).not.toContain("postgres");
      // The example over salary, which the analyst may not read, is not handed on.
      expect(seen.verifiedExamples, mode).toEqual([
        { question: "Which cities are there?", sql: "SELECT name FROM city" },
      ]);
      const other = await handedTo(stranger, mode);
      expect(
        other.knowledge?.map((entry) => entry.name),
        mode,
      ).toEqual(["capital"]);
    }
  });

  it("leaves what a question brings its own, and never fails a question on a broken store", async () => {
    const own = await handedTo(analyst, "upstream", { verifiedExamples: [], knowledge: [] });
    expect(own.verifiedExamples).toEqual([]);
    expect(own.knowledge).toEqual([]);

    const client = new pg.Client({ connectionString: database.urlFor(analyst) });
    await client.connect();
    try {
      const errors: unknown[] = [];
      const pipeline = observingPipeline();
      const { answer } = createQuestionAnswerer({
        store: brokenStore,
        url: database.urlFor(analyst),
        onTeachingError: (error) => errors.push(error),
        answerQuestion: pipeline.answerQuestion,
      });
      await answer({ question: "Which cities?", session: createPgExecutor(client), settings: loadSettings({}) });
      expect(errors.map((error) => (error as Error).message)).toEqual(["metadata store down"]);
      expect(pipeline.seen[0]?.knowledge).toBeUndefined();
    } finally {
      await client.end();
    }
  });
});

describe("createQuestionAnswerer without a metadata store", () => {
  const session = { name: "unused", query: async () => ({ fields: [], rows: [], command: "SELECT" }) };
  const base = { question: "How many stores?", session, settings: loadSettings({}) };

  it("gives a question without a catalog or selector the retrieval selector; a caller's own selector wins", async () => {
    const pipeline = observingPipeline();
    const { answer } = createQuestionAnswerer({ answerQuestion: pipeline.answerQuestion });
    await answer(base);
    const own: SchemaSelector = { name: "own", select: async ({ catalog }) => ({ catalog }) };
    await answer({ ...base, schemaSelector: own });
    expect(pipeline.seen.map((options) => options.schemaSelector?.name)).toEqual(["chess-retrieval", "own"]);
  });

  it("hands the pipeline its query log and model cache unless the question brings its own", async () => {
    const log = (): QueryLog => ({ record: async () => undefined });
    const cache = (): LlmResponseCache => ({ get: async () => undefined, put: async () => undefined });
    const [queryLog, llmCache, ownLog, ownCache] = [log(), cache(), log(), cache()];
    const pipeline = observingPipeline();
    const { answer } = createQuestionAnswerer({ queryLog, llmCache, answerQuestion: pipeline.answerQuestion });
    await answer(base);
    await answer({ ...base, queryLog: ownLog, llmCache: ownCache });
    expect(pipeline.seen.map((options) => [options.queryLog, options.llmCache])).toEqual([
      [queryLog, llmCache],
      [ownLog, ownCache],
    ]);
    expect(pipeline.seen[0]?.queryLog).toBe(queryLog);
    expect(pipeline.seen[1]?.queryLog).toBe(ownLog);
  });
});
