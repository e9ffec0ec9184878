import { createPgExecutor } from "@nlq/adapters";
import { createTestDatabase, type TestDatabase } from "@nlq/adapters/testing";
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadSettings, type Settings } from "../config/settings";
import type { PipelineEvent } from "../contract/events";
import type { QueryExecutor } from "../database/query-executor";
import { UnanswerableQuestionError } from "../errors/question-errors";
import { createStepContext } from "../llm/step-context";
import { mockTextModel, stepOf } from "../testing/mock-text-model";
import type { SchemaSelector } from "./schema-selector";
import { writeQuestionCandidates } from "./write-question-candidates";

// The live path up to selection on a real PostgreSQL, with an AI SDK mock model (no language model): three generators
// write three candidates, two of them agree; nothing is selected and no selection step is called.

let database: TestDatabase;
let client: pg.Client;
let session: QueryExecutor;

beforeAll(async () => {
  database = await createTestDatabase(
    "nlq_write_candidates",
    `CREATE TABLE customers (id integer PRIMARY KEY, name text NOT NULL, country char(2));
     CREATE TABLE notes (id integer PRIMARY KEY, body text);
     INSERT INTO customers VALUES (1, 'Ada', 'GB'), (2, 'Blaise', 'FR'), (3, 'Camille', 'FR');`,
  );
});
afterAll(async () => {
  await database?.drop();
});
beforeEach(async () => {
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
  session = createPgExecutor(client);
});
afterEach(async () => {
  await client.end();
});

const answers: Record<string, string> = {
  "generate-candidate": "SELECT count(*) AS n FROM customers",
  "generate-divide-and-conquer": "SELECT count(id) AS n FROM customers",
  "generate-query-plan": "SELECT count(*) AS n FROM customers WHERE country = 'FR'",
};

function balancedSettings(): Settings {
  return loadSettings({ NLQ_PRESET: "balanced" });
}

describe("writeQuestionCandidates", () => {
  it("runs catalog, schema selection, every generator and execution, and stops before selection", async () => {
    const steps: string[] = [];
    const prompts: string[] = [];
    const model = mockTextModel((call) => {
      const step = stepOf(call);
      steps.push(step);
      prompts.push(JSON.stringify(call.prompt));
      return JSON.stringify({ reasoning: "because", sql: answers[step] ?? "SELECT 1" });
    });
    const events: PipelineEvent[] = [];
    const context = createStepContext({
      question: "how many customers?",
      hint: "the user's hint",
      settings: balancedSettings(),
      resolveModel: () => ({ model, id: "mock:model", scripted: false }),
      onEvent: (event) => events.push(event),
    });
    const schemaSelector: SchemaSelector = {
      name: "customers only",
      select: async ({ catalog }) => ({
        catalog: { ...catalog, tables: catalog.tables.filter((table) => table.name === "customers") },
        hint: "retrieved: country 'FR'",
      }),
    };
    const written = await writeQuestionCandidates({ context, session, schemaSelector });

    expect(written.catalog.tables.map((table) => table.name).sort()).toEqual(["customers", "notes"]);
    expect(written.selected.tables.map((table) => table.name)).toEqual(["customers"]);
    expect(written.context.hint).toBe("the user's hint\nretrieved: country 'FR'");
    // Every generator saw the joined hint; the selector's subset, not the notes table.
    expect(prompts.every((prompt) => prompt.includes("retrieved: country 'FR'"))).toBe(true);
    expect(prompts.some((prompt) => prompt.includes("notes"))).toBe(false);
    // The reading step's one call (the schema shows no phrase in doubt), then the three generators.
    expect(steps.sort()).toEqual([
      "find-readings",
      "generate-candidate",
      "generate-divide-and-conquer",
      "generate-query-plan",
    ]);
    expect(written.context.calls).toHaveLength(4);
    expect(written.generation.records.map((record) => [record.generator, record.ok, record.rows])).toEqual([
      ["one-shot", true, 1],
      ["divide-and-conquer", true, 1],
      ["query-plan", true, 1],
    ]);
    expect(written.generation.executed.map((candidate) => candidate.result.result.rows)).toEqual([
      [["3"]],
      [["3"]],
      [["2"]],
    ]);
    const types = events.map((event) => event.type);
    expect(types.slice(0, 4)).toEqual(["catalog-start", "catalog-end", "schema-start", "schema-end"]);
    expect(types).not.toContain("selection-start");
    expect(types).not.toContain("pipeline-start");
  });

  it("returns a question none of whose candidates ran, with the first error, instead of throwing", async () => {
    const model = mockTextModel(JSON.stringify({ reasoning: "because", sql: "SELECT missing FROM customers" }));
    const settings = { ...balancedSettings(), maxFixAttempts: 0 };
    const context = createStepContext({
      question: "how many customers?",
      settings,
      resolveModel: () => ({ model, id: "mock:model", scripted: false }),
    });
    const written = await writeQuestionCandidates({ context, session });
    expect(written.generation.executed).toEqual([]);
    expect(written.generation.records.every((record) => !record.ok)).toBe(true);
    expect(String(written.generation.firstError)).toMatch(/missing/);
  });

  it("refuses a role that can read no table", async () => {
    const model = mockTextModel(JSON.stringify({ reasoning: "because", sql: "SELECT 1" }));
    const context = createStepContext({
      question: "how many customers?",
      settings: balancedSettings(),
      resolveModel: () => ({ model, id: "mock:model", scripted: false }),
    });
    await expect(writeQuestionCandidates({ context, session, catalog: { tables: [] } })).rejects.toBeInstanceOf(
      UnanswerableQuestionError,
    );
  });
});
