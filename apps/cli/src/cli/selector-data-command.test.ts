import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTestDatabase, type TestDatabase } from "@nlq/adapters/testing";
import { generateDemoDataset, loadDemoData } from "@nlq/demo";
import { Command } from "commander";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCommand } from "./run-command.test-helpers";
import { registerSelectorDataCommand } from "./selector-data-command";

// `nlq selector-data --preset max` on the demo database with the demo's scripted model (recorded responses, no language
// model): for the Berlin and New York questions some samples differ on purpose, so their candidates form a correct and
// an incorrect result cluster; one question's candidates all agree with the gold, and one question's gold matches none.

let database: TestDatabase;
const directory = mkdtempSync(path.join(tmpdir(), "nlq-selector-data-"));
const questionsFile = path.join(directory, "demo-gold.jsonl");

const questions = [
  {
    id: "berlin",
    question: "which customers are from Berlin?",
    gold: "SELECT customer_id, first_name, last_name, email, city FROM customers WHERE btrim(city) ILIKE 'berlin' ORDER BY last_name, first_name",
  },
  {
    id: "new-york",
    question: "how many customers live in New York, counting every spelling?",
    gold: "SELECT count(*) FROM customers WHERE lower(btrim(city)) = ANY (ARRAY['new york', 'nyc', 'new york city'])",
  },
  { id: "customers", question: "how many customers are there?", gold: "SELECT count(customer_id) FROM customers" },
  {
    id: "no-correct-candidate",
    question: "how many customers are there?",
    gold: "SELECT count(*) FROM customers WHERE city IS NULL",
  },
];

beforeAll(async () => {
  database = await createTestDatabase("nlq_selector_data");
  await loadDemoData({ url: database.url, dataset: generateDemoDataset() });
  writeFileSync(questionsFile, questions.map((question) => `${JSON.stringify(question)}\n`).join(""));
}, 120_000);
afterAll(async () => {
  await database?.drop();
  rmSync(directory, { recursive: true, force: true });
});

async function run(...extra: string[]) {
  return runCommand(registerSelectorDataCommand, ["selector-data", "--questions", questionsFile, ...extra], {
    environment: { NLQ_HOME: directory, NLQ_MODEL: "scripted:fixtures/demo-model.json" },
  });
}

interface Example {
  id: string;
  question: string;
  system: string;
  prompt: string;
  answer: "A" | "B";
  candidateA: { source: string; sql: string };
  candidateB: { source: string; sql: string };
}

function readExamples(file: string): Example[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Example);
}

/** The value of a one-row, one-column query. */
async function scalar(sql: string): Promise<string> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const result = await client.query({ text: sql, rowMode: "array" });
    return JSON.stringify(result.rows);
  } finally {
    await client.end();
  }
}

describe("nlq selector-data", () => {
  it("writes one labelled A/B example per correct/incorrect cluster pair and prints the summary", async () => {
    const out = path.join(directory, "pairs.jsonl");
    const { stdout, stderr, exitCode } = await run("--url", database.url, "--preset", "max", "--out", out);
    expect(stderr).not.toContain("nlq selector-data:");
    expect(exitCode).toBeFalsy();
    for (const line of [
      "model: scripted:fixtures/demo-model.json (scripted replay, not a language model)",
      "preset: max",
      "questions: 4 (4 with gold that ran)",
      // max: 10 candidates per question; Berlin and New York give two clusters each, the count questions one each.
      "candidates: 40 written, 40 ran, 6 result clusters (3 match the gold)",
      `examples: 2 pairwise examples from 2 questions, written to ${out}`,
      "questions with no correct candidate: 1; with every cluster correct (nothing to contrast): 1",
      // 13 generation calls per question (1 one-shot, 3 divide-and-conquer, 3 query-plan, 3 synthesize + 3 generate
      // from examples), extract_keywords and the reading step's find-readings per question (retrieval and the reading
      // step run on every question, as `nlq ask` composes them) and the fixer's one repair; no selection call.
      "LLM calls: 61, 0 input + 0 output tokens",
    ]) {
      expect(stdout).toContain(line);
    }

    const examples = readExamples(out);
    expect(examples.map((example) => example.id.split(":")[0])).toEqual(["berlin", "new-york"]);
    for (const example of examples) {
      expect(Object.keys(example).sort()).toEqual([
        "answer",
        "candidateA",
        "candidateB",
        "id",
        "prompt",
        "question",
        "system",
      ]);
      expect(example.system).toContain("JSON");
      expect(example.prompt).toContain(example.question);
      expect(example.prompt).toContain(`Candidate A\n${example.candidateA.sql}\nExecution result`);
      expect(example.prompt).toContain(`Candidate B\n${example.candidateB.sql}\nExecution result`);
      expect(example.prompt).toContain("CREATE TABLE customers");
      // The schema union of the two queries: the orders table is not shown.
      expect(example.prompt).not.toContain("CREATE TABLE orders");
      // The label agrees with the gold, by execution: the side it names returns the gold's rows, the other does not.
      const question = questions.find((each) => example.id.startsWith(`${each.id}:`))!;
      const gold = await scalar(question.gold);
      const [right, wrong] =
        example.answer === "A" ? [example.candidateA, example.candidateB] : [example.candidateB, example.candidateA];
      expect(await scalar(right.sql)).toBe(gold);
      expect(await scalar(wrong.sql)).not.toBe(gold);
    }
    const [berlin, newYork] = examples;
    const sideOf = (example: Example, pattern: RegExp) => (pattern.test(example.candidateA.sql) ? "A" : "B");
    expect(berlin!.answer).toBe(sideOf(berlin!, /lower\(trim\(city\)\)/));
    expect(newYork!.answer).toBe(sideOf(newYork!, /IN \('new york', 'nyc', 'new york city'\)/));

    // The same seed writes the same file; --json prints the same figures.
    const again = path.join(directory, "pairs-again.jsonl");
    const json = await run("--url", database.url, "--preset", "max", "--out", again, "--json");
    expect(readFileSync(again, "utf8")).toBe(readFileSync(out, "utf8"));
    expect(JSON.parse(json.stdout)).toMatchObject({
      questions: 4,
      candidates: 40,
      clusters: 6,
      correctClusters: 3,
      examples: 2,
      questionsWithoutCorrectCandidate: 1,
      questionsAllCorrect: 1,
      llmCalls: 61,
      model: { id: "scripted:fixtures/demo-model.json", scripted: true },
    });
  }, 120_000);

  it("needs --out, and a model", async () => {
    const missingOut = await run("--url", database.url);
    expect(missingOut.exitCode).toBe(2);
    expect(missingOut.stderr).toContain("pass --out FILE");
    let stderr = "";
    const program = new Command().exitOverride();
    registerSelectorDataCommand(program, {
      write: () => undefined,
      writeError: (text) => {
        stderr += text;
      },
      environment: { NLQ_HOME: directory },
    });
    const previousExitCode = process.exitCode;
    const out = path.join(directory, "never.jsonl");
    await program.parseAsync([
      "node",
      "nlq",
      "selector-data",
      "--questions",
      questionsFile,
      "--url",
      database.url,
      "--out",
      out,
    ]);
    const exitCode = process.exitCode;
    process.exitCode = previousExitCode;
    expect(exitCode).toBe(1);
    expect(stderr).toContain("no language model is configured");
  });
});
