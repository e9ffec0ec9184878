import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { createPgExecutor } from "@nlq/adapters";
import { createTestDatabase, type TestDatabase } from "@nlq/adapters/testing";
import { loadSettings, type SchemaSelector, seededRandom } from "@nlq/engine";
import { mockTextModel } from "@nlq/engine/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectSelectorData } from "./collect-selector-data";
import { createEvaluationExecutor } from "./execute-for-evaluation";
import type { GoldQuestion } from "./question-set";
import { summarizeSelectorData } from "./selector-data-report";
import type { SelectorTrainingExample } from "./selector-training-examples";

// The engine's balanced preset (three generators) with an AI SDK mock model (no language model) answering each
// generator with its own SQL, on a schema other than the connection's: clusters labelled against the gold by execution.

let database: TestDatabase;
let client: pg.Client;

beforeAll(async () => {
  database = await createTestDatabase(
    "nlq_selector_data_unit",
    `CREATE SCHEMA shop;
     CREATE TABLE shop.items (id integer PRIMARY KEY, name text, price numeric(6,2));
     CREATE TABLE shop.notes (id integer PRIMARY KEY, body text);
     INSERT INTO shop.items VALUES (1, 'Lamp', 12.50), (2, 'Mug', 4.00), (3, 'Rug', 30.00);`,
  );
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
});
afterAll(async () => {
  await client?.end();
  await database?.drop();
});

function stepOf(call: LanguageModelV3CallOptions): string {
  return (call.providerOptions?.nlq as { step?: string } | undefined)?.step ?? "";
}

/** One SQL per generator step. */
const sqlByStep: Record<string, string> = {
  "generate-candidate": "SELECT name FROM items WHERE price < 20 ORDER BY name",
  "generate-divide-and-conquer": "SELECT name FROM items WHERE price > 20 ORDER BY name",
  "generate-query-plan": "SELECT name FROM items WHERE price <= 12.5 ORDER BY name",
};

const model = mockTextModel(
  (call) => JSON.stringify({ reasoning: "because", sql: sqlByStep[stepOf(call)] ?? "SELECT 1" }),
  { input: 10, output: 4 },
);

const question = (id: string, gold: string, extra: Partial<GoldQuestion> = {}): GoldQuestion => ({
  id,
  question: `which items (${id})?`,
  gold,
  schema: "shop",
  category: "all",
  ...extra,
});

async function collect(questions: GoldQuestion[], prepare?: () => Promise<{ schemaSelector: SchemaSelector }>) {
  const session = createPgExecutor(client);
  const written: SelectorTrainingExample[] = [];
  const outcomes = await collectSelectorData({
    questions,
    session,
    execute: createEvaluationExecutor({ session, statementTimeoutMilliseconds: 5000 }),
    settings: loadSettings({ NLQ_PRESET: "balanced" }),
    resolveModel: () => ({ model, id: "mock:model", scripted: false }),
    ...(prepare ? { answerer: { prepare } } : {}),
    random: seededRandom(3),
    onExamples: (examples) => void written.push(...examples),
  });
  return { outcomes, written };
}

describe("collectSelectorData", () => {
  it("labels each result cluster against the gold and writes one example per correct/incorrect pair", async () => {
    // Candidates: {Lamp, Mug} twice (one-shot and query plan agree) and {Rug}. The gold matches {Lamp, Mug}.
    const { outcomes, written } = await collect([
      question("cheap", "SELECT name FROM items WHERE price < 15 ORDER BY name", { hint: "cheap means under 15" }),
      question("none-right", "SELECT name FROM items ORDER BY name"),
      question("broken-gold", "SELECT nosuchcolumn FROM items"),
    ]);
    expect(
      outcomes.map((outcome) => [outcome.id, outcome.clusters, outcome.correctClusters, outcome.examples]),
    ).toEqual([
      ["cheap", 2, 1, 1],
      ["none-right", 2, 0, 0],
      ["broken-gold", 2, 0, 0],
    ]);
    expect(outcomes[2]).toMatchObject({ evaluated: false });
    expect(outcomes[2]!.goldErrors[0]!.error).toMatch(/nosuchcolumn/);
    expect(written).toHaveLength(1);
    const [example] = written;
    expect(example!.id).toBe("cheap:0-1");
    const right = example!.answer === "A" ? example!.candidateA : example!.candidateB;
    expect(right).toEqual({ source: "one-shot", sql: sqlByStep["generate-candidate"] });
    // The question's hint is shown as the pairwise selector shows it.
    expect(example!.prompt).toContain("cheap means under 15");

    const report = summarizeSelectorData(outcomes, { id: "mock:model", scripted: false });
    expect(report).toMatchObject({
      questions: 3,
      evaluated: 2,
      candidates: 9,
      executed: 9,
      clusters: 6,
      correctClusters: 1,
      examples: 1,
      questionsWithExamples: 1,
      questionsWithoutCorrectCandidate: 1,
      questionsAllCorrect: 0,
      // Three candidates, extract_keywords and the reading step's call per question: retrieval and the reading step
      // run on every question, as in production.
      llmCalls: 15,
      inputTokens: 150,
      outputTokens: 60,
    });
    expect(report.goldErrors).toHaveLength(1);
    // The connection's search_path is back as it was.
    const searchPath = await client.query("SHOW search_path");
    expect(searchPath.rows[0].search_path).toBe('"$user", public');
  });

  it("uses the caller's schema selector and its hint, and records an engine failure without stopping", async () => {
    const schemaSelector: SchemaSelector = {
      name: "items only",
      select: async ({ catalog }) => ({
        catalog: { tables: catalog.tables.filter((table) => table.name === "items") },
        hint: "retrieved: items.price is in euros",
      }),
    };
    const { outcomes, written } = await collect(
      [
        question("too-long", "SELECT 1", { question: "x".repeat(5000) }),
        question("cheap", "SELECT name FROM items WHERE price < 15 ORDER BY name"),
      ],
      async () => ({ schemaSelector }),
    );
    expect(outcomes[0]!.error).toContain("NLQ_MAX_QUESTION_LENGTH");
    expect(outcomes[0]!.calls).toEqual([]);
    expect(outcomes[1]!.examples).toBe(1);
    expect(written[0]!.prompt).toContain("retrieved: items.price is in euros");
    expect(written[0]!.prompt).not.toContain("notes");
  });
});
