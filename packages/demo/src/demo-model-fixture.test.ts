import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { createTestDatabase, type TestDatabase } from "@nlq/adapters/testing";
import { extractSql } from "@nlq/engine";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { DEFAULT_DEMO_ANCHOR_DATE, generateDemoDataset } from "./generate-demo-dataset";
import { loadDemoData } from "./load-demo-data";

/** The scripted-model fixture format (see fixtures/demo-model.json), checked strictly for the steps used here. */
const sqlOutput = z.object({ reasoning: z.string().min(20), sql: z.string() }).strict();
const sqlSteps = z.enum([
  "generate-candidate",
  "generate-divide-and-conquer",
  "generate-query-plan",
  "generate-from-examples",
  "fix-candidate",
]);
const fixtureSchema = z.object({
  description: z.string().regex(/Scripted: no language model produced these/),
  responses: z.array(
    z.union([
      z.object({
        step: sqlSteps,
        question: z.string().min(1),
        sample: z.number().int().nonnegative().optional(),
        promptContains: z.string().min(1).optional(),
        output: sqlOutput,
      }),
      z.object({
        step: z.literal("select-candidate"),
        question: z.string().min(1),
        sample: z.number().int().nonnegative(),
        output: z.object({ reasoning: z.string().min(20), answer: z.enum(["A", "B"]) }).strict(),
      }),
      z.object({
        step: z.literal("summarize-answer"),
        question: z.string().min(1),
        sample: z.number().int().nonnegative().optional(),
        // 300: the `summarize-answer` output cap (`maxAnswerSentenceLength` of @nlq/prompts).
        output: z.object({ answer: z.string().min(20).max(300) }).strict(),
      }),
      z.object({
        step: z.literal("extract-keywords"),
        question: z.string().min(1),
        sample: z.number().int().nonnegative().optional(),
        output: z.object({ keywords: z.array(z.string().min(1)).min(1) }).strict(),
      }),
      z.object({
        // The reading step's call: the demo's readings come from its candidates, so the model flags nothing.
        step: z.literal("find-readings"),
        question: z.literal("*"),
        sample: z.number().int().nonnegative().optional(),
        output: z.object({ phrases: z.array(z.never()) }).strict(),
      }),
      z.object({
        step: z.literal("synthesize-examples"),
        question: z.string().min(1),
        sample: z.number().int().nonnegative().optional(),
        output: z.object({ examples: z.array(z.object({ question: z.string().min(10), sql: z.string().min(10) })) }),
      }),
    ]),
  ),
});

const fixturePath = fileURLToPath(new URL("../../../fixtures/demo-model.json", import.meta.url));
const fixture = fixtureSchema.parse(JSON.parse(readFileSync(fixturePath, "utf8")));
/** Every scripted query (the generators' as `extractSql` recovers them from the scripted answers), by question. */
const scriptedQueries = fixture.responses.flatMap((response) =>
  response.step === "select-candidate" ||
  response.step === "summarize-answer" ||
  response.step === "extract-keywords" ||
  response.step === "find-readings"
    ? []
    : response.step === "synthesize-examples"
      ? response.output.examples.map((example) => ({ question: `(synthetic) ${example.question}`, sql: example.sql }))
      : [
          {
            question: `${response.step}#${response.sample ?? "*"}${"promptContains" in response && response.promptContains ? "+example" : ""} ${response.question}`,
            sql: extractSql(response.output.sql),
          },
        ],
);
/**
 * The one scripted query that fails on purpose, so `nlq ask --preset max` shows the fixer at work: it names a column
 * customers does not have; the fixture's `fix-candidate` answer for its question repairs it.
 */
const failsOnPurpose = "generate-query-plan#2 which customers are from Berlin?";
const answerable = scriptedQueries.filter((query) => query.sql !== "" && query.question !== failsOnPurpose);
/**
 * Some scripted questions say "this year" or "the last 12 months" (now()-relative, as a model would write them).
 * Once the calendar year passes the default anchor's, the test shifts the data to today so they keep answering.
 */
const today = new Date().toISOString().slice(0, 10);
const anchorDate = today.slice(0, 4) > DEFAULT_DEMO_ANCHOR_DATE.slice(0, 4) ? today : DEFAULT_DEMO_ANCHOR_DATE;
const dataset = generateDemoDataset({ anchorDate });
const customersInDataset = dataset.tables.find((table) => table.definition.name === "customers")?.rows.length;

const generationSteps = [
  "generate-candidate",
  "generate-divide-and-conquer",
  "generate-query-plan",
  "generate-from-examples",
];

describe("fixtures/demo-model.json", () => {
  it("scripts about a dozen distinct demo questions and exactly one deliberately unanswerable one", () => {
    const oneShot = fixture.responses.flatMap((response) => (response.step === "generate-candidate" ? [response] : []));
    expect(oneShot.filter((response) => response.output.sql !== "").length).toBeGreaterThanOrEqual(12);
    const unanswerable = oneShot.filter((response) => response.output.sql === "");
    expect(unanswerable).toHaveLength(1);
    expect(unanswerable[0]?.output.reasoning).toMatch(/no|cannot/i);
    const normalized = fixture.responses.map(
      (response) =>
        `${response.step}:${response.sample ?? "*"}:${"promptContains" in response ? response.promptContains : ""}:${response.question.toLowerCase().replace(/[?.!\s]+$/, "")}`,
    );
    expect(new Set(normalized).size).toBe(normalized.length);
    // Fallbacks: the scripted fixer keeps the original query (empty `sql`), so an empty result is the answer; the
    // synthetic examples do not depend on the question (Algorithm 2 synthesises them from the schema); the reading
    // step's call flags nothing.
    const fallbacks = fixture.responses.filter((response) => response.question === "*");
    expect(fallbacks.map((response) => response.step)).toEqual([
      "synthesize-examples",
      "fix-candidate",
      "find-readings",
    ]);
    expect(fallbacks.find((response) => response.step === "fix-candidate")?.output).toMatchObject({ sql: "" });
  });

  it("scripts every generator for every one-shot question, the unanswerable one included", () => {
    const questions = (step: string) =>
      fixture.responses
        .filter((response) => response.step === step && response.sample === undefined)
        .map((response) => response.question)
        .sort();
    for (const step of generationSteps.slice(1)) expect(questions(step), step).toEqual(questions("generate-candidate"));
    const unanswerable = fixture.responses.filter(
      (response) => generationSteps.includes(response.step) && "sql" in response.output && response.output.sql === "",
    );
    expect(new Set(unanswerable.map((response) => response.question)).size).toBe(1);
  });

  it("scripts one plain-language sentence for every answerable one-shot question, and no fallback sentence", () => {
    const sentences = fixture.responses.flatMap((response) => (response.step === "summarize-answer" ? [response] : []));
    const answerableOneShot = fixture.responses.flatMap((response) =>
      response.step === "generate-candidate" && response.question !== "*" && response.output.sql !== ""
        ? [response.question]
        : [],
    );
    // A question may have several one-shot entries (one answering only when a verified example reaches the prompt).
    expect(sentences.map((response) => response.question).sort()).toEqual([...new Set(answerableOneShot)].sort());
    // One line each: the engine would flatten line breaks anyway, the fixture should not rely on it.
    for (const response of sentences) expect(response.output.answer).not.toMatch(/[\n\r\t]/);
  });

  it("scripts the keywords of every question, since keyword extraction runs on every question (CHESS IR)", () => {
    const keywordQuestions = fixture.responses.flatMap((response) =>
      response.step === "extract-keywords" ? [response.question] : [],
    );
    const questions = new Set(
      fixture.responses.flatMap((response) => (response.question === "*" ? [] : [response.question])),
    );
    expect([...keywordQuestions].sort()).toEqual([...questions].sort());
  });

  it("has some samples that deliberately differ from the default answer", () => {
    // The selection agent's answers are per comparison (its sample is the comparison's number), not variants.
    const samples = fixture.responses.filter(
      (response) => response.sample !== undefined && response.step !== "select-candidate",
    );
    expect(samples.length).toBeGreaterThanOrEqual(4);
    for (const sample of samples) {
      const fallback = fixture.responses.find(
        (response) =>
          response.step === sample.step && response.question === sample.question && response.sample === undefined,
      );
      expect(fallback, `${sample.step} ${sample.question}`).toBeDefined();
      const sqlOf = (output: unknown) => extractSql(sqlOutput.parse(output).sql);
      expect(sqlOf(sample.output)).not.toBe(sqlOf(fallback?.output));
    }
  });
});

describe("entries conditioned on the prompt (promptContains)", () => {
  const conditional = fixture.responses.flatMap((response) =>
    "promptContains" in response && response.promptContains !== undefined ? [response] : [],
  );
  it("answer a question that also has an unconditioned answer, with a different query", () => {
    expect(conditional.length).toBeGreaterThanOrEqual(4);
    for (const entry of conditional) {
      const fallback = fixture.responses.find(
        (response) =>
          response.step === entry.step &&
          response.question === entry.question &&
          response.sample === entry.sample &&
          !("promptContains" in response && response.promptContains !== undefined),
      );
      expect(fallback, `${entry.step} ${entry.question}`).toBeDefined();
      const sqlOf = (output: unknown) => extractSql(sqlOutput.parse(output).sql);
      expect(sqlOf(entry.output)).not.toBe(sqlOf(fallback?.output));
    }
  });
  it("wait for a verified example whose question and SQL another scripted question answers with", () => {
    // The condition is the example as the generation prompts render it: "Question: …\nSQL:\n<its SQL>".
    for (const entry of conditional) {
      const [, question, sql] = /^Question: (.+)\nSQL:\n([\s\S]+)$/.exec(entry.promptContains ?? "") ?? [];
      const answered = fixture.responses.find(
        (response) =>
          response.step === "generate-candidate" &&
          response.question === question &&
          "sql" in response.output &&
          response.output.sql.startsWith(sql ?? "\u0000"),
      );
      expect(answered, entry.promptContains).toBeDefined();
    }
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

  it.each(answerable.map((query) => [query.question, query.sql]))("%s", async (_question, sql) => {
    await client.query("BEGIN READ ONLY");
    try {
      const result = await client.query(sql);
      expect(result.rows.length).toBeGreaterThan(0);
    } finally {
      await client.query("ROLLBACK");
    }
  });

  it("fails on purpose once, with the undefined column the fixer repairs", async () => {
    const sql = scriptedQueries.find((query) => query.question === failsOnPurpose)?.sql ?? "";
    await expect(client.query(sql)).rejects.toMatchObject({ code: "42703" });
    expect(answerable.some((query) => query.question === "fix-candidate#* which customers are from Berlin?")).toBe(
      true,
    );
  });

  it("quotes in a scripted sentence only figures of its question or of its query's result on this data", async () => {
    const sentences = fixture.responses.flatMap((response) => (response.step === "summarize-answer" ? [response] : []));
    let figuresChecked = 0;
    for (const response of sentences) {
      const sql = answerable.find((query) => query.question === `generate-candidate#* ${response.question}`)?.sql;
      expect(sql, response.question).toBeDefined();
      const result = await client.query(sql ?? "");
      const values = new Set(result.rows.flatMap((row) => Object.values(row).map(String)));
      for (const figure of response.output.answer.match(/\d[\d,]*(?:\.\d+)?/g) ?? []) {
        figuresChecked += 1;
        expect(
          response.question.includes(figure) || values.has(figure.replaceAll(",", "")),
          `${figure} in "${response.output.answer}"`,
        ).toBe(true);
      }
    }
    expect(figuresChecked).toBeGreaterThan(0);
  });

  it("answers the count question with the size of the customers table", async () => {
    const sql =
      answerable.find((query) => query.question === "generate-candidate#* how many customers are there?")?.sql ?? "";
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
      for (const query of answerable) {
        const result = await pglite.query(query.sql);
        expect(result.rows.length, query.question).toBeGreaterThan(0);
      }
    } finally {
      await pglite.close();
    }
  });
});
