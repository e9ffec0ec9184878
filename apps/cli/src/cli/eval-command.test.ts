import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTestDatabase, type TestDatabase } from "@nlq/adapters/testing";
import { mockTextModel, promptText } from "@nlq/engine/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EvalCommandOutput, registerEvalCommand } from "./eval-command";
import { runCommand } from "./run-command.test-helpers";

let database: TestDatabase;
const directory = mkdtempSync(path.join(tmpdir(), "nlq-eval-"));

beforeAll(async () => {
  database = await createTestDatabase(
    "nlq_eval_cli",
    `CREATE SCHEMA shop;
     CREATE TABLE shop.items (id integer PRIMARY KEY, name text, price numeric(6,2));
     INSERT INTO shop.items VALUES (1, 'Lamp', 12.50), (2, 'Mug', 4.00), (3, 'Rug', 30.00);`,
  );
});
afterAll(async () => {
  await database?.drop();
  rmSync(directory, { recursive: true, force: true });
});

function file(name: string, lines: unknown[]): string {
  const target = path.join(directory, name);
  writeFileSync(target, lines.map((line) => (typeof line === "string" ? line : JSON.stringify(line))).join("\n"));
  return target;
}

async function runEval(argumentsList: string[], extra: Partial<EvalCommandOutput> = {}) {
  return runCommand(registerEvalCommand, ["eval", ...argumentsList], { environment: {}, ...extra });
}

const golds = [
  {
    id: "1",
    question: "Items under 20, by name?",
    schema: "shop",
    gold: "SELECT name FROM items WHERE price < 20 ORDER BY name",
  },
  { id: "2", question: "How many items?", schema: "shop", gold: "SELECT count(*) FROM items" },
  {
    id: "3",
    question: "Id or name of the dearest item?",
    schema: "shop",
    gold: "SELECT {id,name} FROM items ORDER BY price DESC LIMIT 1",
  },
];

describe("nlq eval --candidates", () => {
  it("scores gold as a candidate 1.0 and prints the JSON shape of the issue", async () => {
    const pool = file(
      "gold-pool.jsonl",
      golds.map((gold) => ({ ...gold, candidates: [{ source: "gold", sql: gold.gold.replace("{id,name}", "name") }] })),
    );
    const result = await runEval(["--candidates", pool, "--url", database.url, "--json"]);
    expect(result.exitCode).toBeFalsy();
    const report = JSON.parse(result.stdout);
    expect(report.questions).toBe(3);
    expect(report.sources.gold.ex).toBe(1);
    expect(report.selectors["self-consistency"].ex).toBe(1);
    expect(report.selectors.oracle.ex).toBe(1);
    expect(report.selectors.random.ex).toBe(1);
  });

  it("prints a readable table per source and selector", async () => {
    const pool = file("mixed-pool.jsonl", [
      {
        ...golds[1],
        candidates: [
          { source: "good", sql: "SELECT count(id) FROM items" },
          { source: "bad", sql: "SELECT 7" },
        ],
      },
    ]);
    const result = await runEval(["--candidates", pool, "--url", database.url]);
    expect(result.stdout).toContain("1 questions");
    expect(result.stdout).toMatch(/source good\s+\| 100\.0%/);
    expect(result.stdout).toMatch(/source bad\s+\| 0\.0%/);
    expect(result.stdout).toMatch(/random\s+\| 50\.0%/);
  });

  it("adds the pairwise agent and the unit tester when a model is configured, naming a scripted one", async () => {
    const pool = file("selection-pool.jsonl", [
      {
        ...golds[1],
        candidates: [
          { source: "bad", sql: "SELECT 7" },
          { source: "good", sql: "SELECT count(id) FROM items" },
        ],
      },
    ]);
    const model = mockTextModel((call) => {
      const prompt = JSON.stringify(call.prompt);
      if (prompt.includes("Candidate B")) {
        const b = prompt.slice(prompt.indexOf("Candidate B"));
        return JSON.stringify({ answer: b.includes("count(id)") ? "B" : "A" });
      }
      if (prompt.includes("*** Unit Test: ***"))
        return JSON.stringify({ reasoning: "", verdicts: ["Failed", "Passed"] });
      return JSON.stringify({ reasoning: "", unitTests: ["The answer SQL query should count the items."] });
    });
    const resolveModel = () => ({ model, id: "scripted:selection.json", scripted: true });
    const json = JSON.parse(
      (await runEval(["--candidates", pool, "--url", database.url, "--json"], { resolveModel })).stdout,
    );
    expect(json.model).toEqual({ id: "scripted:selection.json", scripted: true });
    expect(json.selectors["self-consistency"].ex).toBe(0);
    expect(json.selectors.pairwise).toMatchObject({ ex: 1, llmCalls: 2, failures: 0 });
    expect(json.selectors["unit-tests"]).toMatchObject({ ex: 1, llmCalls: 2, failures: 0 });
    const text = (await runEval(["--candidates", pool, "--url", database.url], { resolveModel })).stdout;
    expect(text).toContain("selection model: scripted:selection.json (scripted replay, not a language model)");
    expect(text).toMatch(/pairwise\s+\| 100\.0%\s+\| 100\.0%\s+\| 2 LLM calls/);
    const without = (await runEval(["--candidates", pool, "--url", database.url])).stdout;
    expect(without).toContain("pairwise agent and unit tester not run: no model configured");
  });

  it("writes pairwise selector training examples from correct and incorrect clusters", async () => {
    const pool = file("training-pool.jsonl", [
      {
        ...golds[1],
        candidates: [
          { source: "bad", sql: "SELECT 7" },
          { source: "good", sql: "SELECT count(id) FROM items" },
          { source: "good-again", sql: "SELECT count(*) FROM items" },
          { source: "worse", sql: "SELECT count(*) FROM items WHERE price > 100" },
        ],
      },
      // All candidates correct: no example.
      { ...golds[0], candidates: [{ source: "gold", sql: golds[0]!.gold }] },
    ]);
    const out = path.join(directory, "selector-data.jsonl");
    const result = await runEval(["--candidates", pool, "--url", database.url, "--selector-data", out]);
    expect(result.exitCode).toBeFalsy();
    expect(result.stderr).toContain(`wrote 2 pairwise selector training examples to ${out}`);
    const examples = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(examples.map((example) => example.id)).toEqual(["2:1-0", "2:1-3"]);
    for (const example of examples) {
      const correct = example.answer === "A" ? example.candidateA : example.candidateB;
      expect(correct).toEqual({ source: "good", sql: "SELECT count(id) FROM items" });
      expect(example.prompt).toContain("Question:\nHow many items?");
      expect(example.prompt).toContain(
        `Candidate ${example.answer}\nSELECT count(id) FROM items\nExecution result\ncount\n3\n(1 row)`,
      );
    }
    // The schema union: the columns the two queries use.
    expect(examples[0].prompt).toContain("CREATE TABLE shop.items (\n  id integer NOT NULL,\n  PRIMARY KEY (id)\n);");
    expect(examples[1].prompt).toContain("  price numeric(6,2)");
    const misuse = await runEval(["--questions", pool, "--url", database.url, "--selector-data", out]);
    expect(misuse.stderr).toContain("--selector-data needs --candidates FILE");
  });

  it("fails clearly without exactly one input", async () => {
    const result = await runEval(["--url", database.url]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("exactly one of --candidates FILE and --questions FILE");
  });
});

describe("nlq eval --questions", () => {
  const questions = () =>
    file(
      "questions.jsonl",
      golds.map((gold, index) => ({ ...gold, category: index < 2 ? "basic" : "order" })),
    );

  it("scores an engine whose model answers the gold SQL 1.0, with calls and tokens per question", async () => {
    const model = mockTextModel(
      (call) => {
        const prompt = JSON.stringify(call.prompt);
        const gold = golds.find((item) => prompt.includes(item.question))!;
        return JSON.stringify({ reasoning: "gold", sql: gold.gold.replace("{id,name}", "id") });
      },
      { input: 100, output: 10 },
    );
    const result = await runEval(["--questions", questions(), "--url", database.url, "--json", "--preset", "fast"], {
      resolveModel: () => ({ model, id: "mock:gold", scripted: false }),
    });
    expect(result.exitCode).toBeFalsy();
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ questions: 3, ex: 1, failures: 0, model: { id: "mock:gold", scripted: false } });
    expect(report.categories).toMatchObject({
      basic: { questions: 2, ex: 1, setEx: 1, spiderEx: 1 },
      order: { questions: 1, ex: 1, setEx: 1, spiderEx: 1 },
    });
    expect(Object.keys(report.categories)).toEqual(["basic", "order"]);
    // extract-keywords (retrieval runs on every question; this mock's reply is unreadable, so the heuristic) + one candidate.
    expect(report.perQuestion).toMatchObject({ llmCalls: 2, inputTokens: 200, outputTokens: 20 });
    // The default preset (balanced) writes three candidates after the reading step's call: five calls per question.
    const balanced = await runEval(["--questions", questions(), "--url", database.url, "--json"], {
      resolveModel: () => ({ model, id: "mock:gold", scripted: false }),
    });
    expect(JSON.parse(balanced.stdout)).toMatchObject({ ex: 1, perQuestion: { llmCalls: 5, inputTokens: 500 } });
  });

  it("scores an engine whose model answers wrong SQL 0 and says when the model is a scripted replay", async () => {
    const model = mockTextModel(
      JSON.stringify({ reasoning: "wrong", sql: "SELECT name FROM items WHERE price > 1000" }),
    );
    const result = await runEval(["--questions", questions(), "--url", database.url], {
      resolveModel: () => ({ model, id: "scripted:wrong.json", scripted: true }),
    });
    expect(result.exitCode).toBeFalsy();
    expect(result.stdout).toContain("model: scripted:wrong.json (scripted replay, not a language model)");
    expect(result.stdout).toMatch(/overall\s+\| 3\s+\| 0\.0%/);
  });

  it("lists every question with its id, SQL or error, correctness, calls, clusters and how it was chosen", async () => {
    // Question 1: right; 2: wrong result; 3: the model's SQL names a missing column (the engine fails: no candidate ran).
    const model = mockTextModel((call) => {
      const prompt = JSON.stringify(call.prompt);
      if (prompt.includes(golds[0]!.question)) return JSON.stringify({ reasoning: "gold", sql: golds[0]!.gold });
      if (prompt.includes(golds[1]!.question)) return JSON.stringify({ reasoning: "off", sql: "SELECT 7" });
      return JSON.stringify({ reasoning: "bad", sql: "SELECT no_such_column FROM items" });
    });
    const environment = { NLQ_MAX_FIX_ATTEMPTS: "0" };
    const json = await runEval(["--questions", questions(), "--url", database.url, "--json", "--preset", "fast"], {
      environment,
      resolveModel: () => ({ model, id: "mock:mixed", scripted: false }),
    });
    const report = JSON.parse(json.stdout);
    expect(report.results.map((result: { id: string }) => result.id)).toEqual(["1", "2", "3"]);
    expect(report.results[0]).toMatchObject({
      id: "1",
      category: "basic",
      scored: true,
      correct: true,
      sql: golds[0]!.gold,
      candidates: 1,
      clusters: 1,
      chosenBy: "single",
    });
    expect(report.results[0].calls).toBeGreaterThanOrEqual(1);
    expect(report.results[0].basis).toEqual(expect.any(String));
    expect(report.results[1]).toMatchObject({ id: "2", correct: false, sql: "SELECT 7" });
    expect(report.results[1].error).toBeUndefined();
    expect(report.results[2]).toMatchObject({ id: "3", correct: false, failedIn: "engine" });
    expect(report.results[2].sql).toBeUndefined();
    expect(report.results[2].error).toContain("no_such_column");
    expect(report.results[2].errorName).toEqual(expect.any(String));

    const text = await runEval(["--questions", questions(), "--url", database.url, "--preset", "fast"], {
      environment,
      resolveModel: () => ({ model, id: "mock:mixed", scripted: false }),
    });
    expect(text.stdout).toContain("not correct (2 of 3 scored):");
    expect(text.stdout).toMatch(
      / {2}2 \[basic\]: wrong result \(\d+ calls, 1 candidates, 1 clusters, chosen by single\)\n {6}SELECT 7/,
    );
    expect(text.stdout).toMatch(/ {2}3 \[order\]: engine error \w+( \(\w+\))?: .*no_such_column/);
    expect(text.stdout).not.toMatch(/ {2}1 \[basic\]/);
  });

  it("reads defog's CSV, with db_name as the schema", async () => {
    const csv = path.join(directory, "defog.csv");
    writeFileSync(
      csv,
      'question,query,db_name,query_category,instructions\n"How many items?","SELECT COUNT(*) FROM items;SELECT COUNT(id) FROM items;",shop,count,\n',
    );
    const model = mockTextModel(JSON.stringify({ reasoning: "count", sql: "SELECT count(*) FROM items" }));
    const result = await runEval(["--questions", csv, "--url", database.url, "--json"], {
      resolveModel: () => ({ model, id: "mock:count", scripted: false }),
    });
    expect(JSON.parse(result.stdout)).toMatchObject({ questions: 1, ex: 1, categories: { count: { ex: 1 } } });
  });
});

describe("nlq eval --questions --compare-verified-examples", () => {
  // Two pairs of similar questions with the same gold: whichever of a pair lands in the example half teaches the other.
  const pairs = [
    { id: "count-1", question: "How many items are there?", gold: "SELECT count(*) FROM items" },
    { id: "count-2", question: "How many items do we have?", gold: "SELECT count(*) FROM items" },
    {
      id: "cheap-1",
      question: "Names of items under 20?",
      gold: "SELECT name FROM items WHERE price < 20 ORDER BY name",
    },
    {
      id: "cheap-2",
      question: "Item names under 20, please",
      gold: "SELECT name FROM items WHERE price < 20 ORDER BY name",
    },
  ].map((pair) => ({ ...pair, schema: "shop" }));

  /** A mock model that copies the first verified example's SQL from its prompt, or answers wrong without one. */
  function copyingModel(prompts: string[]) {
    return mockTextModel((call) => {
      const prompt = promptText(call);
      // extract-keywords runs first on every question (retrieval); only the generation prompts are kept.
      if (!prompt.includes("extract keywords, keyphrases and named entities")) prompts.push(prompt);
      const example = /Verified examples on this database[^\n]*\nExample 1\)\nQuestion: [^\n]*\nSQL:\n([^\n]+)/.exec(
        prompt,
      );
      return JSON.stringify({ reasoning: "mock", sql: example?.[1] ?? "SELECT 0" });
    });
  }

  it("answers the held-out half without and with the other half's similar pairs; only the second run's prompts hold them", async () => {
    const prompts: string[] = [];
    const model = copyingModel(prompts);
    const result = await runEval(
      [
        "--questions",
        file("pairs.jsonl", pairs),
        "--url",
        database.url,
        "--json",
        "--preset",
        "fast",
        "--compare-verified-examples",
        "--split-seed",
        "3",
      ],
      { resolveModel: () => ({ model, id: "mock:copy", scripted: false }) },
    );
    expect(result.exitCode).toBeFalsy();
    const report = JSON.parse(result.stdout);
    expect(report.seed).toBe(3);
    expect(report.split.exampleIds).toHaveLength(2);
    expect(report.split.heldOutIds).toHaveLength(2);
    expect(report.note).toBeUndefined();
    const heldOut = pairs.filter((pair) => report.split.heldOutIds.includes(pair.id));
    const partnerOf = (pair: (typeof pairs)[number]) =>
      pairs.find((other) => other !== pair && other.id.split("-")[0] === pair.id.split("-")[0])!;
    const taught = heldOut.filter((pair) => report.split.exampleIds.includes(partnerOf(pair).id));
    expect(taught.length).toBeGreaterThan(0);
    expect(report.questionsWithExamples).toBe(taught.length);
    expect(report.withoutExamples).toMatchObject({ questions: 2, ex: 0 });
    expect(report.withExamples).toMatchObject({ questions: 2, ex: taught.length / 2 });
    expect(report.difference.ex).toBeCloseTo(taught.length / 2);
    expect(report.questionsGivenExamples).toMatchObject({
      questions: taught.length,
      withoutExamples: { ex: 0 },
      withExamples: { ex: 1 },
    });

    // fast: one generation call per question, the run without examples first.
    expect(prompts).toHaveLength(4);
    for (const prompt of prompts.slice(0, 2)) expect(prompt).not.toContain("Verified examples on this database");
    for (const pair of taught) {
      const partner = partnerOf(pair);
      const prompt = prompts.slice(2).find((text) => text.includes(`Question:\n${pair.question}`))!;
      expect(prompt).toContain(`Verified examples on this database`);
      expect(prompt).toContain(`Question: ${partner.question}\nSQL:\n${partner.gold}`);
    }
    // A held-out question is never shown its own gold pair, and example-half questions are never answered.
    for (const prompt of prompts)
      for (const id of report.split.exampleIds)
        expect(prompt).not.toContain(`Question:\n${pairs.find((pair) => pair.id === id)!.question}`);
  });

  it("prints both figures and the difference, and says a scripted model's figures measure nothing", async () => {
    const model = copyingModel([]);
    const result = await runEval(
      [
        "--questions",
        file("pairs.jsonl", pairs),
        "--url",
        database.url,
        "--preset",
        "fast",
        "--compare-verified-examples",
        "--split-seed",
        "3",
      ],
      { resolveModel: () => ({ model, id: "scripted:copy.json", scripted: true }) },
    );
    expect(result.stdout).toContain("model: scripted:copy.json (scripted replay, not a language model)");
    expect(result.stdout).toMatch(/without examples\s+\| 2\s+\| 0\.0%/);
    expect(result.stdout).toMatch(/with examples\s+\| 2\s+\| (50|100)\.0%/);
    expect(result.stdout).toMatch(/difference: EX \+(50|100)\.0 points/);
    expect(result.stdout).toContain("note: scripted replay, not a language model: its answers are recorded");
    const misuse = await runEval([
      "--candidates",
      file("pairs.jsonl", pairs),
      "--url",
      database.url,
      "--compare-verified-examples",
    ]);
    expect(misuse.stderr).toContain("--compare-verified-examples needs --questions FILE");
  });
});
