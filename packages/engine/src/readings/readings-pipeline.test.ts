import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { createPgExecutor } from "@nlq/adapters";
import { createTestDatabase, type TestDatabase } from "@nlq/adapters/testing";
import { MockLanguageModelV3 } from "ai/test";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSettings, type Settings } from "../config/settings";
import type { Answer } from "../contract/answer";
import type { KnowledgeEntry } from "../contract/knowledge";
import type { QueryExecutor } from "../database/query-executor";
import { answerWithInterpretation } from "../interpretations/answer-with-interpretation";
import { answerQuestion } from "../pipeline/answer-question";
import { mockTextResult, stepOf } from "../testing/mock-text-model";

// The reading step on a real PostgreSQL database with two natural readings of "name": a singer's legal name and the
// name they perform under (no value marks either column as a decoy). The mock model (no real model) writes what a
// careful answerer writes: the legal name, unless its prompt says this reading means the performer's name — so
// without the reading step every candidate agrees, and with it each reading gets its own candidates.

let database: TestDatabase;
let client: pg.Client;
let session: QueryExecutor;

beforeAll(async () => {
  database = await createTestDatabase(
    "nlq_readings",
    `CREATE TABLE singer (singer_id integer PRIMARY KEY, artist_name text NOT NULL, performer_name text NOT NULL,
                          country text NOT NULL);
     INSERT INTO singer VALUES (1, 'Robyn Fenty', 'Rihanna', 'Barbados'), (2, 'Abel Tesfaye', 'The Weeknd', 'Canada'),
                               (3, 'Aubrey Graham', 'Drake', 'Canada'), (4, 'Celine Dion', 'Celine Dion', 'Canada');
     CREATE TABLE concert (concert_id integer PRIMARY KEY, singer_id integer REFERENCES singer, city text NOT NULL);
     INSERT INTO concert VALUES (1, 2, 'Toronto'), (2, 4, 'Las Vegas');
     CREATE TABLE pet (pet_id integer PRIMARY KEY, species text NOT NULL, mass real NOT NULL, body_weight real NOT NULL);
     INSERT INTO pet VALUES (1, 'dog', 12.5, 13.1), (2, 'dog', 30.2, 29.0), (3, 'cat', 4.1, 4.4);`,
  );
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
  session = createPgExecutor(client);
});
afterAll(async () => {
  await client?.end();
  await database?.drop();
});

const legalNames = "SELECT artist_name FROM singer WHERE country = 'Canada' ORDER BY artist_name";
const stageNames = "SELECT performer_name FROM singer WHERE country = 'Canada' ORDER BY performer_name";
/** Celine Dion, the one singer whose two names are the same, is the one who played in Las Vegas. */
const vegas = (column: string) =>
  `SELECT s.${column} FROM singer s JOIN concert c ON c.singer_id = s.singer_id WHERE c.city = 'Las Vegas'`;

/** Every generator and fixer prompt the mock model saw. */
const prompts: string[] = [];
/** Every prompt of the reading step's model call. */
const flagPrompts: string[] = [];

function promptText(call: LanguageModelV3CallOptions): string {
  return JSON.stringify(call.prompt);
}

const model = new MockLanguageModelV3({
  doGenerate: async (call) => {
    const text = promptText(call);
    const step = stepOf(call);
    // The reading step's model call: the synonyms of "weight" the schema's names cannot relate, nothing else.
    if (step === "find-readings") {
      flagPrompts.push(text);
      const phrases = text.includes("average weight")
        ? [
            {
              phrase: "weight",
              reason: "mass and body_weight both hold a weight",
              meanings: ["pet.mass", "pet.body_weight"],
            },
          ]
        : [];
      return mockTextResult(JSON.stringify({ phrases }), { input: 10, output: 5 });
    }
    prompts.push(text);
    if (!step.startsWith("generate-")) throw new Error(`no answer for step ${step}`);
    if (text.includes("weight of the dogs")) {
      const column = text.includes("means pet.body_weight") ? "body_weight" : "mass";
      return mockTextResult(
        JSON.stringify({
          reasoning: "the dogs' weights",
          sql: `SELECT avg(${column}) AS weight FROM pet WHERE species = 'dog'`,
        }),
        { input: 10, output: 5 },
      );
    }
    const column = text.includes("means singer.performer_name") ? "performer_name" : "artist_name";
    const sql = text.includes("played in Las Vegas")
      ? vegas(column)
      : column === "performer_name"
        ? stageNames
        : legalNames;
    return mockTextResult(JSON.stringify({ reasoning: "the singers from Canada", sql }), { input: 10, output: 5 });
  },
});

function settings(environment: Record<string, string> = {}): Settings {
  return { ...loadSettings({ NLQ_PRESET: "balanced", ...environment }), summarizeAnswer: false };
}

function ask(question: string, askSettings: Settings, knowledge?: readonly KnowledgeEntry[]): Promise<Answer> {
  prompts.length = 0;
  flagPrompts.length = 0;
  return answerQuestion({
    question,
    session,
    settings: askSettings,
    resolveModel: () => ({ model, id: "mock:model", scripted: false }),
    ...(knowledge ? { knowledge } : {}),
  });
}

const question = "What is the name of every singer from Canada?";

describe("the reading step in the pipeline", () => {
  it("without it, three agreeing candidates answer at confidence 1.00 and nothing is offered", async () => {
    const base = settings();
    const answer = await ask(question, { ...base, readings: false });
    expect(answer.sql).toBe(legalNames);
    expect(answer.confidence).toBe(1);
    expect(answer.interpretations).toBeUndefined();
    expect(answer.readings).toBeUndefined();
  });

  it("gives each reading of «name» its own candidates, offers both, asks, and never reports 1.00", async () => {
    const answer = await ask(question, settings());
    expect(answer.readings?.map((reading) => [reading.number, reading.phrase, reading.chosen.label])).toEqual([
      [1, "name", "singer.artist_name"],
      [2, "name", "singer.performer_name"],
    ]);
    // The preset's three candidates are shared out: no more generation calls than without readings.
    expect(answer.candidates.map((candidate) => [candidate.generator, candidate.reading])).toEqual([
      ["one-shot", 1],
      ["divide-and-conquer", 2],
      ["query-plan", 1],
    ]);
    expect(answer.calls).toHaveLength(3);
    expect(prompts.filter((prompt) => prompt.includes("In this reading of the question"))).toHaveLength(3);
    expect(answer.sql).toBe(legalNames);
    expect(
      answer.interpretations?.map(({ number, sql, support, rows, reading }) => ({
        number,
        sql,
        support,
        rows,
        reading,
      })),
    ).toEqual([
      {
        number: 1,
        sql: legalNames,
        support: 2,
        rows: [["Abel Tesfaye"], ["Aubrey Graham"], ["Celine Dion"]],
        reading: {
          phrase: "name",
          chosen: { label: "singer.artist_name", elements: ["public.singer.artist_name"] },
          alternatives: [{ label: "singer.performer_name", elements: ["public.singer.performer_name"] }],
        },
      },
      {
        number: 2,
        sql: stageNames,
        support: 1,
        rows: [["Celine Dion"], ["Drake"], ["The Weeknd"]],
        reading: {
          phrase: "name",
          chosen: { label: "singer.performer_name", elements: ["public.singer.performer_name"] },
          alternatives: [{ label: "singer.artist_name", elements: ["public.singer.artist_name"] }],
        },
      },
    ]);
    // 2 of 3 is a majority, but the readings differ: ask.
    expect(answer.needsChoice).toBe(true);
    expect(answer.choiceBasis).toBe(
      "«name» can mean singer.artist_name (#1) or singer.performer_name (#2), and they return different rows",
    );
    expect(answer.confidence).toBeCloseTo(2 / 3);
    expect(answer.selection.basis).toBe("2 of 3 candidates returned this result (the largest of 2 clusters)");
  });

  it("caps a selector's figure at the chosen reading's share when the readings return different rows", async () => {
    const answer = await ask(question, settings({ NLQ_SELECTOR: "random" }));
    expect(answer.interpretations).toHaveLength(2);
    expect(answer.confidence).toBeLessThan(1);
    expect(answer.confidence).toBeCloseTo(answer.interpretations![0]!.share);
  });

  it("asks nothing when the readings return the same rows", async () => {
    const same = await ask("What is the name of every singer who played in Las Vegas?", settings());
    expect(same.readings).toHaveLength(2);
    expect(same.interpretations).toBeUndefined();
    expect(same.needsChoice).toBe(false);
    expect(same.choiceBasis).toBe("the readings of the question returned one result");
  });

  it("leaves a question with one reading as it was", async () => {
    const answer = await ask("Which city did each concert take place in?", settings());
    expect(answer.readings).toBeUndefined();
    expect(answer.candidates.every((candidate) => candidate.reading === undefined)).toBe(true);
    expect(prompts.some((prompt) => prompt.includes("In this reading"))).toBe(false);
  });

  it("follows a confirmed reading before generation: one meaning, no question, and says whose and when", async () => {
    const confirmed: KnowledgeEntry = {
      id: "entry-7",
      kind: "reading",
      name: "name",
      text: "name means singer.performer_name",
      references: ["public.singer.performer_name"],
      reading: {
        phrase: "name",
        chosen: { label: "singer.performer_name", elements: ["public.singer.performer_name"] },
        alternatives: [{ label: "singer.artist_name", elements: ["public.singer.artist_name"] }],
      },
      origin: "reading",
      sharedWithAllRoles: false,
      updatedAt: "2026-12-01T09:30:00.000Z",
    };
    const answer = await ask(question, settings(), [confirmed]);
    expect(answer.sql).toBe(stageNames);
    expect(answer.readings).toBeUndefined();
    expect(answer.interpretations).toBeUndefined();
    expect(answer.needsChoice).toBe(false);
    expect(answer.confidence).toBe(1);
    expect(answer.followedConfirmations).toEqual([
      {
        entryId: "entry-7",
        phrase: "name",
        chosen: { label: "singer.performer_name", elements: ["public.singer.performer_name"] },
        setAside: [{ label: "singer.artist_name", elements: ["public.singer.artist_name"] }],
        confirmedBy: "you",
        confirmedAt: "2026-12-01T09:30:00.000Z",
      },
    ]);
    expect(prompts.every((prompt) => prompt.includes("(a confirmed reading)"))).toBe(true);
  });

  it("asks the model when the schema shows no doubt, and gives a flagged synonym its readings", async () => {
    const answer = await ask("What is the average weight of the dogs?", settings());
    expect(flagPrompts).toHaveLength(1);
    expect(answer.readings?.map((reading) => [reading.kind, reading.phrase, reading.chosen.label])).toEqual([
      ["columns", "weight", "pet.mass"],
      ["columns", "weight", "pet.body_weight"],
    ]);
    expect(answer.readings?.[0]?.evidence).toContain("flagged by the model");
    expect(answer.interpretations).toHaveLength(2);
    expect(answer.needsChoice).toBe(true);
    expect(answer.confidence).toBeLessThan(1);
  });

  it("makes no model call for readings when the schema already shows the phrase in doubt, or the preset has none", async () => {
    await ask(question, settings());
    expect(flagPrompts).toEqual([]);
    await ask("What is the average weight of the dogs?", { ...settings(), readings: false });
    expect(flagPrompts).toEqual([]);
  });

  it("follows a confirmed reading the model did not flag this time", async () => {
    const confirmed: KnowledgeEntry = {
      id: "entry-9",
      kind: "reading",
      name: "weight",
      text: "weight means pet.body_weight",
      references: ["public.pet.body_weight"],
      reading: {
        phrase: "weight",
        chosen: { label: "pet.body_weight", elements: ["public.pet.body_weight"] },
        alternatives: [{ label: "pet.mass", elements: ["public.pet.mass"] }],
      },
      origin: "reading",
      sharedWithAllRoles: false,
      updatedAt: "2026-12-02T05:00:00.000Z",
    };
    // The model is asked and flags nothing (its prompt does not say "average weight"): the confirmation still decides.
    const answer = await ask("What is the mean weight of the dogs?", settings(), [confirmed]);
    expect(flagPrompts).toHaveLength(1);
    expect(answer.readings).toBeUndefined();
    expect(answer.followedConfirmations?.map((followed) => [followed.entryId, followed.chosen.label])).toEqual([
      ["entry-9", "pet.body_weight"],
    ]);
    expect(
      prompts.every((prompt) => prompt.includes("«weight» means pet.body_weight, not pet.mass (a confirmed reading)")),
    ).toBe(true);
  });

  it("keeps each interpretation's reading on a pick, so a confirmation can store it", async () => {
    const answer = await ask(question, settings());
    const picked = await answerWithInterpretation({ answer, number: 2, session, settings: settings() });
    expect(picked.sql).toBe(stageNames);
    expect(picked.interpretations?.find((reading) => reading.chosen)?.reading?.chosen.label).toBe(
      "singer.performer_name",
    );
    expect(picked.readings).toHaveLength(2);
  });
});
