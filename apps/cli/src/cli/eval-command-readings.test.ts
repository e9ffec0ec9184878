import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTestDatabase, type TestDatabase } from "@nlq/adapters/testing";
import { mockTextModel } from "@nlq/engine/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EvalCommandOutput, registerEvalCommand } from "./eval-command";
import { runCommand } from "./run-command.test-helpers";

// nlq eval on questions with several gold readings (AmbiQT's shape), false alarms on questions with one, EX under the
// Spider rule, and questions spread over several databases — on real PostgreSQL, with mock models (no language model):
// each of the balanced preset's three generators answers a fixed SQL per question, so the candidates agree or split
// as each case needs.

let database: TestDatabase;
let other: TestDatabase;
const directory = mkdtempSync(path.join(tmpdir(), "nlq-eval-readings-"));

beforeAll(async () => {
  // `age` and `age_years` are synonyms whose values drifted apart: both readings of "how old" return other rows.
  database = await createTestDatabase(
    "nlq_eval_readings",
    `CREATE SCHEMA music;
     CREATE TABLE music.singer (id integer PRIMARY KEY, name text, age integer, age_years integer);
     INSERT INTO music.singer VALUES (1, 'Joe', 52, 52), (2, 'Rose', 41, 43), (3, 'Tim', 29, 29);`,
  );
  other = await createTestDatabase(
    "nlq_eval_readings_other",
    `CREATE SCHEMA music; CREATE TABLE music.album (id integer PRIMARY KEY, title text);
     INSERT INTO music.album VALUES (1, 'Blue'), (2, 'Red');`,
  );
});
afterAll(async () => {
  await database?.drop();
  await other?.drop();
  rmSync(directory, { recursive: true, force: true });
});

const byAge = "SELECT name, age FROM singer";
const byAgeYears = "SELECT name, age_years FROM singer";

/** Per question, what each generator step answers: [one-shot, divide-and-conquer, query plan]. */
const answers: Record<string, [string, string, string]> = {
  "How old is each singer?": [byAge, byAge, byAgeYears],
  "What age is each singer?": [byAgeYears, byAgeYears, byAgeYears],
  "How many singers are there?": [
    "SELECT count(*) FROM singer",
    "SELECT count(*) FROM singer",
    "SELECT count(*) FROM singer WHERE age > 30",
  ],
  "List each singer's age and name.": [
    "SELECT age, name FROM singer",
    "SELECT age, name FROM singer",
    "SELECT age, name FROM singer",
  ],
  "How many albums are there?": [
    "SELECT count(*) FROM album",
    "SELECT count(*) FROM album",
    "SELECT count(*) FROM album",
  ],
};
const steps = ["generate-candidate", "generate-divide-and-conquer", "generate-query-plan"];

let generationCalls = 0;
const model = mockTextModel((call) => {
  const prompt = JSON.stringify(call.prompt);
  const question = Object.keys(answers).find((text) => prompt.includes(text));
  // The pipeline step each call is for (the engine passes it to the provider).
  const step = steps.indexOf((call.providerOptions?.nlq as { step?: string } | undefined)?.step ?? "");
  if (question === undefined || step === -1) return "{}";
  generationCalls++;
  return JSON.stringify({ reasoning: "mock", sql: answers[question]![step] });
});

function file(name: string, lines: unknown[]): string {
  const target = path.join(directory, name);
  writeFileSync(target, lines.map((line) => JSON.stringify(line)).join("\n"));
  return target;
}

const questions = () =>
  file("readings.jsonl", [
    {
      id: "split",
      question: "How old is each singer?",
      schema: "music",
      query1: byAge,
      query2: byAgeYears,
      category: "C",
    },
    { id: "agreed", question: "What age is each singer?", schema: "music", gold: [byAge, byAgeYears], category: "C" },
    { id: "alarm", question: "How many singers are there?", schema: "music", gold: "SELECT count(*) FROM singer" },
    {
      id: "swapped",
      question: "List each singer's age and name.",
      schema: "music",
      gold: "SELECT name, age FROM singer",
    },
  ]);

async function runEval(argumentsList: string[], extra: Partial<EvalCommandOutput> = {}) {
  return runCommand(registerEvalCommand, ["eval", ...argumentsList], {
    environment: {},
    resolveModel: () => ({ model, id: "mock:readings", scripted: false }),
    ...extra,
  });
}

describe("nlq eval --questions with several gold readings", () => {
  it("says per question which readings the answer and its interpretations return, and sums them", async () => {
    const result = await runEval(["--questions", questions(), "--url", database.url, "--json"]);
    expect(result.stderr).toBe("");
    const report = JSON.parse(result.stdout);
    const byId = Object.fromEntries(report.results.map((entry: { id: string }) => [entry.id, entry]));
    // Two of three candidates read `age`, one `age_years`: the answer is `age` (#1) and offers `age_years` as #2.
    expect(byId.split).toMatchObject({
      goldReadings: 2,
      correct: true,
      interpretations: 2,
      needsChoice: false,
      bothFound: true,
      eitherFound: true,
      readings: [
        { number: 1, scored: true, matchedBy: [1] },
        { number: 2, scored: true, matchedBy: [2] },
      ],
    });
    // All three read `age_years`: one reading found, nothing asked.
    expect(byId.agreed).toMatchObject({
      correct: true,
      interpretations: 0,
      bothFound: false,
      eitherFound: true,
      readings: [
        { number: 1, matchedBy: [] },
        { number: 2, matchedBy: [1] },
      ],
    });
    expect(byId.agreed.falseAlarm).toBeUndefined();
    // One reading, but the candidates split: a false alarm.
    expect(byId.alarm).toMatchObject({ goldReadings: 1, correct: true, interpretations: 2, falseAlarm: true });
    expect(byId.alarm.bothFound).toBeUndefined();
    // Columns in another order: wrong under nlq's rule, right under the Spider rule; no doubt shown.
    expect(byId.swapped).toMatchObject({ correct: false, spiderCorrect: true, falseAlarm: false });

    expect(report.readings.several).toMatchObject({
      questions: 2,
      bothFound: 1,
      bothFoundRate: 0.5,
      eitherFound: 2,
      firstReadingMatches: 2,
      withInterpretations: 1,
    });
    expect(report.readings.single).toMatchObject({ questions: 2, falseAlarms: 1, falseAlarmRate: 0.5 });
    expect(report).toMatchObject({ questions: 4, ex: 0.75, spiderEx: 1 });
    expect(report.categories.C.readings.several.bothFound).toBe(1);
  });

  it("prints the reading figures, each question's readings and the false alarms", async () => {
    const result = await runEval(["--questions", questions(), "--url", database.url]);
    expect(result.stdout).toMatch(/category\s+\| questions\s+\| EX\s+\| EX \(Spider rule\)\s+\| set EX/);
    expect(result.stdout).toMatch(/overall\s+\| 4\s+\| 75\.0%\s+\| 100\.0%/);
    expect(result.stdout).toContain("several readings (2 questions): both found 50.0%, either found 100.0%");
    expect(result.stdout).toContain("one reading (2 questions): false-alarm rate 50.0%");
    expect(result.stdout).toContain("  split [C]: reading 1 = #1; reading 2 = #2 (2 interpretations)");
    expect(result.stdout).toContain("  agreed [C]: reading 1 not offered; reading 2 = #1 (0 interpretations)");
    expect(result.stdout).toMatch(/false alarms \(1\):\n {2}alarm \[all\]: 2 interpretations/);
    expect(result.stdout).toContain("swapped [all]: wrong result under nlq's rule, correct under the Spider rule");
  });

  it("asks a question that names its database there, on --url's server", async () => {
    const mixed = file("databases.jsonl", [
      { id: "here", question: "How many singers are there?", schema: "music", gold: "SELECT count(*) FROM singer" },
      {
        id: "there",
        question: "How many albums are there?",
        schema: "music",
        database: other.name,
        gold: "SELECT count(*) FROM album",
      },
    ]);
    const result = await runEval(["--questions", mixed, "--url", database.url, "--json"]);
    const report = JSON.parse(result.stdout);
    expect(report.results.map((entry: { id: string; correct: boolean }) => [entry.id, entry.correct])).toEqual([
      ["here", true],
      ["there", true],
    ]);
    expect(report.goldErrors).toEqual([]);
  });

  it("refuses a question file naming a database the server lacks, before asking anything", async () => {
    const missing = file("missing.jsonl", [
      { question: "How many albums are there?", database: "nlq_no_such_database_here", gold: "SELECT 1" },
    ]);
    generationCalls = 0;
    const result = await runEval(["--questions", missing, "--url", database.url]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("does not have: nlq_no_such_database_here");
    expect(generationCalls).toBe(0);
  });
});
