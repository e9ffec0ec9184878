import { createPgExecutor } from "@nlq/adapters";
import { createTestDatabase, dropTestRole, type TestDatabase } from "@nlq/adapters/testing";
import { MockLanguageModelV3 } from "ai/test";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GeneratorPlan } from "../config/presets";
import { loadSettings, type Settings } from "../config/settings";
import type { Answer } from "../contract/answer";
import type { QueryExecutor } from "../database/query-executor";
import { DatabaseError, SqlValidationError } from "../errors/database-errors";
import { answerQuestion } from "../pipeline/answer-question";
import { mockTextResult, stepOf } from "../testing/mock-text-model";
import { answerWithInterpretation } from "./answer-with-interpretation";
import { InterpretationNotFoundError } from "./interpretation-errors";

// Interpretations on a real PostgreSQL, as a role under row-level security: the balanced preset's three generators
// disagree (mock models), the answer lists the three readings with the rows the role saw, and a picked reading runs
// again under the same role through the pipeline's execution path.

const role = `nlq_interpretations_${process.pid}`;
let database: TestDatabase;
let client: pg.Client;
let session: QueryExecutor;

beforeAll(async () => {
  await dropTestRole(role);
  database = await createTestDatabase(
    "nlq_interpretations",
    `CREATE TABLE customers (id integer PRIMARY KEY, name text NOT NULL, country char(2));
     INSERT INTO customers VALUES (1, 'Ada', 'GB'), (2, 'Blaise', 'FR'), (3, 'Camille', 'FR');
     CREATE TABLE secrets (note text);
     CREATE ROLE ${role} LOGIN;
     GRANT SELECT ON customers TO ${role};
     ALTER TABLE customers ENABLE ROW LEVEL SECURITY;
     CREATE POLICY french_only ON customers TO ${role} USING (country = 'FR');`,
  );
  client = new pg.Client({ connectionString: database.urlFor(role) });
  await client.connect();
  session = createPgExecutor(client);
});
afterAll(async () => {
  await client?.end();
  await database?.drop();
  await dropTestRole(role);
});

const countAll = "SELECT count(*) AS n FROM customers";
const namesByCountry = "SELECT name FROM customers WHERE country = 'FR' ORDER BY name";
const highestId = "SELECT max(id) AS n FROM customers";

const generatorSql: Record<string, string> = {
  "generate-candidate": countAll,
  "generate-divide-and-conquer": namesByCountry,
  "generate-query-plan": highestId,
};

const model = new MockLanguageModelV3({
  doGenerate: async (call) => {
    const sql = generatorSql[stepOf(call)];
    if (!sql) throw new Error(`no answer for step ${stepOf(call)}`);
    return mockTextResult(JSON.stringify({ reasoning: "because", sql }), { input: 10, output: 5 });
  },
});

const threeGenerators: GeneratorPlan[] = [
  { generator: "one-shot", samples: 1, temperature: 0 },
  { generator: "divide-and-conquer", samples: 1, temperature: 0.5 },
  { generator: "query-plan", samples: 1, temperature: 0.5 },
];

function settings(environment: Record<string, string> = {}): Settings {
  return {
    ...loadSettings({ NLQ_PRESET: "balanced", ...environment }),
    generators: threeGenerators,
    summarizeAnswer: false,
  };
}

function ask(askSettings: Settings): Promise<Answer> {
  return answerQuestion({
    question: "how many customers?",
    session,
    settings: askSettings,
    resolveModel: () => ({ model, id: "mock:model", scripted: false }),
  });
}

describe("interpretations of a question whose candidates disagree", () => {
  it("lists each reading with its SQL, support, the rows the role saw and how it differs, and asks", async () => {
    const answer = await ask(settings());
    expect(answer.sql).toBe(countAll);
    // Row-level security: the role sees the two French customers only.
    expect(answer.result.rows).toEqual([["2"]]);
    expect(
      answer.interpretations?.map(({ number, chosen, sql, support, rows }) => ({ number, chosen, sql, support, rows })),
    ).toEqual([
      { number: 1, chosen: true, sql: countAll, support: 1, rows: [["2"]] },
      { number: 2, chosen: false, sql: namesByCountry, support: 1, rows: [["Blaise"], ["Camille"]] },
      { number: 3, chosen: false, sql: highestId, support: 1, rows: [["3"]] },
    ]);
    expect(answer.interpretations?.[1]?.difference).toBe(
      "returns name instead of count(*); adds the filter country = 'FR'; orders by name; 2 rows instead of 1 row",
    );
    expect(answer.interpretations?.[2]?.difference).toBe("returns max(id) instead of count(*); n is 3 instead of 2");
    expect(answer.needsChoice).toBe(true);
    expect(answer.choiceBasis).toBe(
      "the chosen reading has 1 of 3 candidates (33%), below NLQ_ASK_WHEN_SUPPORT_BELOW=0.5",
    );
  });

  it("answers without asking when NLQ_ASK_WHEN_SUPPORT_BELOW is 0, still listing the readings", async () => {
    const answer = await ask(settings({ NLQ_ASK_WHEN_SUPPORT_BELOW: "0" }));
    expect(answer.needsChoice).toBe(false);
    expect(answer.interpretations).toHaveLength(3);
  });

  it("turns a picked reading into an answer run again under the same role", async () => {
    const answer = await ask(settings());
    const picked = await answerWithInterpretation({ answer, number: 3, session, settings: settings() });
    expect(picked.sql).toBe(highestId);
    expect(picked.result.rows).toEqual([["3"]]);
    expect(picked.result.fields.map((field) => field.name)).toEqual(["n"]);
    expect(picked.selection.selector).toBe("user");
    expect(picked.selection.basis).toBe("picked by the user: interpretation #3 (1 of 3 candidates returned it)");
    expect(picked.confidence).toBeUndefined();
    expect(picked.needsChoice).toBe(false);
    expect(picked.interpretations?.map((reading) => [reading.number, reading.chosen, reading.difference])).toEqual([
      [1, false, "returns count(*) instead of max(id); n is 2 instead of 3"],
      [
        2,
        false,
        "returns name instead of max(id); adds the filter country = 'FR'; orders by name; 2 rows instead of 1 row",
      ],
      [3, true, "the picked reading"],
    ]);
  });

  it("runs the picked SQL under the asking role: RLS applies, writes and ungranted tables are refused", async () => {
    const answer = await ask(settings());
    const tampered = (sql: string): Answer => ({
      ...answer,
      interpretations: answer.interpretations?.map((reading) => (reading.number === 2 ? { ...reading, sql } : reading)),
    });
    const pick = (sql: string) =>
      answerWithInterpretation({ answer: tampered(sql), number: 2, session, settings: settings() });
    expect((await pick("SELECT count(*) FROM customers WHERE country = 'GB'")).result.rows).toEqual([["0"]]);
    await expect(pick("DELETE FROM customers")).rejects.toBeInstanceOf(SqlValidationError);
    await expect(pick("SELECT note FROM secrets")).rejects.toMatchObject({ code: "42501" });
    await expect(pick("SELECT note FROM secrets")).rejects.toBeInstanceOf(DatabaseError);
  });

  it("refuses a number the answer does not have", async () => {
    const answer = await ask(settings());
    await expect(answerWithInterpretation({ answer, number: 4, session, settings: settings() })).rejects.toEqual(
      new InterpretationNotFoundError(4, 3),
    );
    const { interpretations: _none, ...agreed } = answer;
    await expect(
      answerWithInterpretation({ answer: agreed, number: 1, session, settings: settings() }),
    ).rejects.toMatchObject({ code: "22023", available: 0 });
  });
});
