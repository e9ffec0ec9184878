import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { createPgExecutor } from "@nlq/adapters";
import { createTestDatabase, type TestDatabase } from "@nlq/adapters/testing";
import { MockLanguageModelV3 } from "ai/test";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tableKey } from "../catalog/catalog-types";
import { loadSettings } from "../config/settings";
import type { QueryExecutor } from "../database/query-executor";
import { answerQuestion } from "../pipeline/answer-question";
import type { SchemaSelector } from "../pipeline/schema-selector";
import { mockTextResult, stepOf } from "../testing/mock-text-model";

// A reading whose option lies beyond the selected schema: the schema selector keeps `singer` only, and the split-out
// `singer_country` (where each singer's country is recorded again, and for one singer differently) reaches the
// prompts of reading #2's candidates alone. Real PostgreSQL; the mock model (no real model) joins through
// singer_country only when its prompt says so.

let database: TestDatabase;
let client: pg.Client;
let session: QueryExecutor;

beforeAll(async () => {
  database = await createTestDatabase(
    "nlq_readings_join",
    `CREATE TABLE singer (singer_id integer PRIMARY KEY, name text NOT NULL, country text NOT NULL);
     INSERT INTO singer VALUES (1, 'Rihanna', 'Barbados'), (2, 'The Weeknd', 'Canada'), (3, 'Drake', 'Canada');
     CREATE TABLE singer_country (singer_id integer PRIMARY KEY REFERENCES singer, country text NOT NULL);
     INSERT INTO singer_country VALUES (1, 'United States'), (2, 'Canada'), (3, 'Canada');`,
  );
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
  session = createPgExecutor(client);
});
afterAll(async () => {
  await client?.end();
  await database?.drop();
});

const direct = "SELECT country, count(*) AS singers FROM singer GROUP BY country ORDER BY country";
const joined =
  "SELECT sc.country, count(*) AS singers FROM singer s JOIN singer_country sc ON sc.singer_id = s.singer_id GROUP BY sc.country ORDER BY sc.country";

const prompts: string[] = [];
const model = new MockLanguageModelV3({
  doGenerate: async (call: LanguageModelV3CallOptions) => {
    const text = JSON.stringify(call.prompt);
    prompts.push(text);
    if (!stepOf(call).startsWith("generate-")) throw new Error(`no answer for step ${stepOf(call)}`);
    const sql = text.includes("means singer_country.country") ? joined : direct;
    return mockTextResult(JSON.stringify({ reasoning: "count per country", sql }));
  },
});

/** A schema selector that keeps the `singer` table alone. */
const singerOnly: SchemaSelector = {
  name: "singer-only",
  async select({ catalog }) {
    return { catalog: { tables: catalog.tables.filter((table) => tableKey(table) === "public.singer") } };
  },
};

describe("a reading beyond the selected schema", () => {
  it("shows the split-out table to its own candidates only, and offers both readings", async () => {
    const answer = await answerQuestion({
      question: "How many singers come from each country?",
      session,
      settings: { ...loadSettings({ NLQ_PRESET: "balanced" }), summarizeAnswer: false },
      schemaSelector: singerOnly,
      resolveModel: () => ({ model, id: "mock:model", scripted: false }),
    });
    expect(answer.readings?.map((reading) => [reading.kind, reading.chosen.label])).toEqual([
      ["join-path", "singer.country"],
      ["join-path", "singer_country.country (joined to singer on singer_id)"],
    ]);
    const withSplitTable = prompts.filter((prompt) => prompt.includes("CREATE TABLE singer_country"));
    expect(withSplitTable).toHaveLength(1);
    expect(withSplitTable[0]).toContain("means singer_country.country (joined to singer on singer_id)");
    expect(answer.interpretations?.map((reading) => [reading.sql, reading.rows])).toEqual([
      [
        direct,
        [
          ["Barbados", "1"],
          ["Canada", "2"],
        ],
      ],
      [
        joined,
        [
          ["Canada", "2"],
          ["United States", "1"],
        ],
      ],
    ]);
    expect(answer.needsChoice).toBe(true);
  });
});
