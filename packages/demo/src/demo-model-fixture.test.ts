import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { createTestDatabase, type TestDatabase } from "@nlq/adapters/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { DEFAULT_DEMO_ANCHOR_DATE, generateDemoDataset } from "./generate-demo-dataset";
import { loadDemoData } from "./load-demo-data";

/** The scripted-model fixture format (see fixtures/demo-model.json), checked strictly for the steps used here. */
const fixtureSchema = z.object({
  description: z.string().regex(/Scripted: no language model produced these/),
  responses: z.array(
    z.object({
      step: z.enum(["generate-candidate", "fix-candidate"]),
      question: z.string().min(1),
      output: z.object({ reasoning: z.string().min(20), sql: z.string() }).strict(),
    }),
  ),
});

const fixturePath = fileURLToPath(new URL("../../../fixtures/demo-model.json", import.meta.url));
const fixture = fixtureSchema.parse(JSON.parse(readFileSync(fixturePath, "utf8")));
const answerable = fixture.responses.filter((response) => response.output.sql !== "");
/**
 * Some scripted questions say "this year" or "the last 12 months" (now()-relative, as a model would write them).
 * Once the calendar year passes the default anchor's, the test shifts the data to today so they keep answering.
 */
const today = new Date().toISOString().slice(0, 10);
const anchorDate = today.slice(0, 4) > DEFAULT_DEMO_ANCHOR_DATE.slice(0, 4) ? today : DEFAULT_DEMO_ANCHOR_DATE;
const dataset = generateDemoDataset({ anchorDate });
const customersInDataset = dataset.tables.find((table) => table.definition.name === "customers")?.rows.length;

describe("fixtures/demo-model.json", () => {
  it("scripts about a dozen distinct demo questions and exactly one deliberately unanswerable one", () => {
    expect(answerable.length).toBeGreaterThanOrEqual(12);
    const unanswerable = fixture.responses.filter(
      (response) => response.step === "generate-candidate" && response.output.sql === "",
    );
    expect(unanswerable).toHaveLength(1);
    expect(unanswerable[0]?.output.reasoning).toMatch(/no|cannot/i);
    const normalized = fixture.responses.map(
      (response) => `${response.step}:${response.question.toLowerCase().replace(/[?.!\s]+$/, "")}`,
    );
    expect(new Set(normalized).size).toBe(normalized.length);
    // The only fallback: the scripted fixer keeps the original query (empty `sql`), so an empty result is the answer.
    const fallbacks = fixture.responses.filter((response) => response.question === "*");
    expect(fallbacks.map((response) => [response.step, response.output.sql])).toEqual([["fix-candidate", ""]]);
  });
});

describe("every scripted SQL answers on the loaded demo database (PostgreSQL)", () => {
  let database: TestDatabase;
  let client: pg.Client;
  beforeAll(async () => {
    database = await createTestDatabase("nlq_demo_fixture");
    await loadDemoData({ url: database.url, dataset });
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await database?.drop();
  });

  it.each(answerable.map((response) => [response.question, response.output.sql]))("%s", async (_question, sql) => {
    await client.query("BEGIN READ ONLY");
    try {
      const result = await client.query(sql);
      expect(result.rows.length).toBeGreaterThan(0);
    } finally {
      await client.query("ROLLBACK");
    }
  });

  it("answers the count question with the size of the customers table", async () => {
    const sql = answerable.find((response) => response.question === "how many customers are there?")?.output.sql ?? "";
    const result = await client.query(sql);
    expect(Number(result.rows[0].customers)).toBe(customersInDataset);
    expect(customersInDataset).toBe(1500);
  });
});

describe("every scripted SQL answers on the demo database in PGlite", () => {
  it("runs each answerable statement with at least one row", { timeout: 180_000 }, async () => {
    const pglite = new PGlite();
    try {
      await loadDemoData({ pglite, dataset });
      for (const response of answerable) {
        const result = await pglite.query(response.output.sql);
        expect(result.rows.length, response.question).toBeGreaterThan(0);
      }
    } finally {
      await pglite.close();
    }
  });
});
