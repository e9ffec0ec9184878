import { randomBytes } from "node:crypto";
import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { answerQuestion, columnKey, loadSettings, type PipelineEvent, type Settings } from "@nlq/engine";
import { mockTextModel } from "@nlq/engine/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MetadataStore, openMetadataStore } from "../metadata/open-metadata-store";
import { createPgExecutor } from "../postgres/pg-executor";
import { createTestDatabase, dropTestRole, type TestDatabase } from "../testing/test-database";
import { BackgroundValueIndexes } from "../value-index/background-value-index";
import { backgroundIndexKey, connectBackground } from "../value-index/connect-background";
import { prepareIndexedQuestion } from "./prepare-indexed-question";

// Issue 18, item 3: retrieval runs on every question, indexed or not. A value the question misspells sits in row
// 59,000 of a table nobody indexed (far beyond the 50 rows live sample values read); its stored spelling must reach
// every generator's prompt, from the live lookup first and from the background value index once it is built.
const role = `nlq_live_${randomBytes(4).toString("hex")}`;
const stored = "Mississauga";
const hidden = "Zanzibarville";
const setup = `
CREATE TABLE customer (id integer PRIMARY KEY, city text NOT NULL, region text NOT NULL, owner name NOT NULL);
INSERT INTO customer
  SELECT n, CASE n WHEN 59000 THEN '${stored}' WHEN 59001 THEN '${hidden}' ELSE 'Misty Town ' || n END,
         CASE WHEN n = 59000 THEN 'Saskatchewan' ELSE 'Ontario' END,
         CASE WHEN n = 59001 THEN 'someone_else' ELSE '${role}' END
  FROM generate_series(1, 60000) AS n;
CREATE VIEW city_view AS SELECT city AS view_city FROM customer;
ALTER TABLE customer ENABLE ROW LEVEL SECURITY;
CREATE POLICY own_rows ON customer FOR SELECT USING (owner = current_user);
CREATE ROLE ${role} LOGIN;
GRANT SELECT ON customer, city_view TO ${role};
ANALYZE;
`;

const generatorSteps = [
  "generate-candidate",
  "generate-divide-and-conquer",
  "generate-query-plan",
  "generate-from-examples",
] as const;

/** Mock models for every step; each generator's prompt is kept. */
function capturingModels(keywords: readonly string[]) {
  const generatorPrompts = new Map<string, string[]>();
  const steps: string[] = [];
  const answer = (step: string, call: LanguageModelV3CallOptions): string => {
    steps.push(step);
    if (step === "extract-keywords") return JSON.stringify({ keywords });
    if (step === "synthesize-examples")
      return JSON.stringify({ examples: [{ question: "How many customers?", sql: "SELECT count(*) FROM customer" }] });
    if ((generatorSteps as readonly string[]).includes(step)) {
      generatorPrompts.set(step, [...(generatorPrompts.get(step) ?? []), JSON.stringify(call.prompt)]);
      return JSON.stringify({ reasoning: "count", sql: `SELECT count(*) FROM customer WHERE city = '${stored}'` });
    }
    throw new Error(`unexpected step ${step}`);
  };
  return {
    generatorPrompts,
    steps,
    resolveModel: (step: string) => ({
      id: `mock:${step}`,
      scripted: false,
      model: mockTextModel((call) => answer(step, call)),
    }),
  };
}

function everyGenerator(): Settings {
  return {
    ...loadSettings({ NLQ_PRESET: "max" }),
    generators: [
      { generator: "one-shot", samples: 1, temperature: 0 },
      { generator: "divide-and-conquer", samples: 1, temperature: 0 },
      { generator: "query-plan", samples: 1, temperature: 0 },
      { generator: "synthetic-examples", samples: 1, temperature: 0 },
    ],
    summarizeAnswer: false,
  };
}

describe("value retrieval on an unindexed database (real PostgreSQL)", () => {
  let database: TestDatabase;
  let store: MetadataStore;
  let superuser: pg.Client;
  let limited: pg.Client;

  beforeAll(async () => {
    database = await createTestDatabase("nlq_unindexed_values", setup);
    store = await openMetadataStore({ directory: "memory://" });
    superuser = new pg.Client({ connectionString: database.url });
    limited = new pg.Client({ connectionString: database.urlFor(role) });
    await superuser.connect();
    await limited.connect();
  }, 60_000);

  afterAll(async () => {
    await superuser?.end();
    await limited?.end();
    await store?.close();
    await database?.drop();
    await dropTestRole(role);
  });

  const ask = async (
    client: pg.Client,
    url: string,
    keywords: readonly string[],
    background?: BackgroundValueIndexes,
  ) => {
    const session = createPgExecutor(client);
    const models = capturingModels(keywords);
    const events: PipelineEvent[] = [];
    const settings = everyGenerator();
    const prepared = await prepareIndexedQuestion({
      store,
      url,
      session,
      settings,
      // Generous bounds: the machine running the tests may be busy; the defaults are 1 s per table, 2 s in all.
      liveLookup: { tableTimeoutMilliseconds: 20_000, budgetMilliseconds: 60_000 },
      ...(background
        ? {
            backgroundValueIndex: {
              indexes: background,
              key: backgroundIndexKey(url),
              connect: () => connectBackground(url),
            },
          }
        : {}),
    });
    const answer = await answerQuestion({
      question: "How many customers live in Missisauga?",
      session,
      settings,
      resolveModel: models.resolveModel,
      onEvent: (event) => events.push(event),
      ...prepared,
    });
    return { ...models, events, answer, prepared };
  };

  it("puts the stored spelling of a misspelt value from row 59,000 into every generator's prompt (live lookup)", async () => {
    const run = await ask(superuser, database.url, ["Missisauga"]);
    expect(run.prepared.catalog).toBeUndefined(); // nothing indexed: live introspection, retrieval all the same
    expect(run.steps[0]).toBe("extract-keywords");
    for (const step of generatorSteps) {
      const prompts = run.generatorPrompts.get(step) ?? [];
      expect(prompts.length, step).toBeGreaterThan(0);
      for (const prompt of prompts) expect(prompt, step).toContain(`public.customer.city = '${stored}'`);
    }
    const valuesEnd = run.events.find((event) => event.type === "values-end");
    expect(JSON.stringify(valuesEnd)).toContain(stored);
    expect(run.answer.result.rows).toEqual([["1"]]);
  }, 60_000);

  it("still finds it when the model's keywords miss it (the relay's mechanical answer, keywords ['x'])", async () => {
    const run = await ask(superuser, database.url, ["x"]);
    const prompts = [...run.generatorPrompts.values()].flat().join("\n");
    expect(prompts).toContain(`public.customer.city = '${stored}'`);
    expect(JSON.stringify(run.events.find((event) => event.type === "keywords-end"))).toContain("Missisauga");
  }, 60_000);

  it("never shows the asking role a row its policy hides, and never reads a view", async () => {
    const run = await ask(limited, database.urlFor(role), ["Zanzibarvile", "Missisauga"]);
    const prompts = [...run.generatorPrompts.values()].flat().join("\n");
    expect(prompts).toContain(`public.customer.city = '${stored}'`);
    expect(prompts).not.toContain(hidden);
    expect(JSON.stringify(run.events)).not.toContain(hidden);
    expect(prompts).not.toContain("city_view.view_city =");
  }, 60_000);

  it("builds the value index in the background, bounded, and keeps finding the value once it is ready", async () => {
    const indexes = new BackgroundValueIndexes({ valuesPerColumn: 20_000 });
    const key = backgroundIndexKey(database.url);
    const first = await ask(superuser, database.url, ["Missisauga", "Saskatchewen"], indexes);
    expect([...first.generatorPrompts.values()].flat().join("\n")).toContain(`'${stored}'`);
    await indexes.settled(key);
    const state = indexes.use(key, () => connectBackground(database.url));
    expect(state.status).toBe("ready");
    // 60,000 distinct cities are cut at 20,000 (looked up live from now on); the two regions are held whole.
    const city = columnKey({ schema: "public", table: "customer", column: "city" });
    const region = columnKey({ schema: "public", table: "customer", column: "region" });
    expect(state.incompleteColumns?.has(city)).toBe(true);
    expect(state.incompleteColumns?.has(region)).toBe(false);
    expect(state.index?.size).toBeLessThanOrEqual(20_010); // 20,000 cities, two regions, two owners
    expect(state.index?.columns.map(columnKey)).not.toContain(
      columnKey({ schema: "public", table: "city_view", column: "view_city" }),
    );
    const second = await ask(superuser, database.url, ["Missisauga", "Saskatchewen"], indexes);
    const prompts = [...second.generatorPrompts.values()].flat().join("\n");
    expect(prompts).toContain(`public.customer.city = '${stored}'`);
    expect(prompts).toContain("public.customer.region = 'Saskatchewan'");
  }, 120_000);
});
