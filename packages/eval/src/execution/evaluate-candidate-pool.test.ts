import { createPgExecutor } from "@nlq/adapters";
import { createTestDatabase, type TestDatabase } from "@nlq/adapters/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PoolQuestion } from "./candidate-pool";
import { evaluateCandidatePool } from "./evaluate-candidate-pool";
import { createEvaluationExecutor } from "./execute-for-evaluation";
import { summarizePool } from "./pool-report";

let database: TestDatabase;
let client: pg.Client;

beforeAll(async () => {
  database = await createTestDatabase(
    "nlq_eval_pool",
    `CREATE SCHEMA shop;
     CREATE TABLE shop.items (id integer PRIMARY KEY, name text, price numeric(6,2));
     INSERT INTO shop.items VALUES (1, 'Lamp', 12.50), (2, 'Mug', 4.00), (3, 'Rug', 30.00);`,
  );
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
});
afterAll(async () => {
  await client?.end();
  await database?.drop();
});

const execute = () =>
  createEvaluationExecutor({ session: createPgExecutor(client), statementTimeoutMilliseconds: 5000 });

const question = (id: string, gold: string, candidates: Array<[string, string]>): PoolQuestion => ({
  id,
  question: id,
  schema: "shop",
  gold,
  candidates: candidates.map(([source, sql]) => ({ source, sql })),
});

describe("evaluateCandidatePool", () => {
  it("sets search_path to the question's schema, read-only, and scores gold as a candidate 1.0", async () => {
    const pool = [
      question("cheap", "SELECT name FROM items WHERE price < 20 ORDER BY name", [
        ["gold", "SELECT name FROM items WHERE price < 20 ORDER BY name;"],
      ]),
      question("count", "SELECT count(*) FROM items", [["gold", "SELECT count(*) FROM items"]]),
    ];
    const report = summarizePool(await evaluateCandidatePool({ questions: pool, execute: execute() }));
    expect(report.questions).toBe(2);
    expect(report.sources.gold).toEqual({ ex: 1, setEx: 1, candidates: 2, errors: 0 });
    expect(report.selectors.oracle.ex).toBe(1);
    expect(report.selectors["self-consistency"].ex).toBe(1);
  });

  it("scores sources, oracle, the exact random expectation and self-consistency", async () => {
    const pool = [
      // Gold orders at the top level: the reversed order is wrong for EX, right as a set.
      question("ordered", "SELECT name FROM items ORDER BY price", [
        ["a", "SELECT name FROM items ORDER BY price DESC"],
        ["b", "SELECT name FROM items ORDER BY price"],
        ["c", "SELECT name FROM items ORDER BY price DESC"],
      ]),
      // defog notation: either column is accepted.
      question("either", "SELECT {id, name} FROM items WHERE price > 10", [
        ["a", "SELECT name FROM items WHERE price > 10"],
        ["b", "SELECT nosuchcolumn FROM items"],
        ["c", "SELECT name FROM items"],
      ]),
    ];
    const outcomes = await evaluateCandidatePool({ questions: pool, execute: execute() });
    expect(outcomes[1]!.candidates[1]!.error).toMatch(/42703/);
    const report = summarizePool(outcomes);
    expect(report.sources.a).toMatchObject({ ex: 0.5, setEx: 1 });
    expect(report.sources.b).toMatchObject({ ex: 0.5, errors: 1 });
    expect(report.sources.c).toMatchObject({ ex: 0, setEx: 0.5 });
    expect(report.selectors.oracle.ex).toBe(1);
    expect(report.selectors.random.ex).toBeCloseTo((1 / 3 + 1 / 3) / 2, 10);
    // "ordered": a and c agree (2 of 3) and are wrong; "either": three singletons, the first (a) wins the tie.
    expect(outcomes.map((outcome) => outcome.clusters)).toEqual([2, 2]);
    expect(report.selectors["self-consistency"].ex).toBe(0.5);
  });

  it("reports a failing gold and leaves its question out of the figures", async () => {
    const pool = [
      question("broken", "SELECT missing FROM items", [["a", "SELECT 1"]]),
      question("fine", "SELECT 1", [["a", "SELECT 1"]]),
    ];
    const report = summarizePool(await evaluateCandidatePool({ questions: pool, execute: execute() }));
    expect(report.questions).toBe(1);
    expect(report.sources.a).toMatchObject({ ex: 1, candidates: 1 });
    expect(report.goldErrors).toEqual([
      expect.objectContaining({ id: "broken", scored: false, error: expect.stringMatching(/42703/) }),
    ]);
  });

  it("runs candidates read-only: a write fails and changes nothing", async () => {
    const pool = [question("write", "SELECT count(*) FROM items", [["a", "DELETE FROM items RETURNING 1"]])];
    const outcomes = await evaluateCandidatePool({ questions: pool, execute: execute() });
    expect(outcomes[0]!.candidates[0]!.error).toMatch(/25006/);
    const count = await client.query("SELECT count(*) AS n FROM shop.items");
    expect(count.rows[0].n).toBe("3");
  });

  it("validates candidates like every other path: a side-effect function is refused before it runs", async () => {
    const pool = [
      question("lock", "SELECT count(*) FROM items", [["a", "SELECT pg_advisory_lock(42), count(*) FROM items"]]),
    ];
    const outcomes = await evaluateCandidatePool({ questions: pool, execute: execute() });
    expect(outcomes[0]!.candidates[0]!.error).toMatch(/pg_advisory_lock.*25006/s);
    const locks = await client.query("SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory'");
    expect(locks.rows[0].n).toBe("0");
  });
});
