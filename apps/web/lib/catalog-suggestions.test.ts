import { createTestDatabase, dropTestRole, type TestDatabase } from "@nlq/adapters/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { questionsOfTables, readableTablesSql, type SuggestedTable, suggestionsFor } from "./catalog-suggestions";

const role = `nlq_web_suggest_${Date.now().toString(36)}`;
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase(
    "nlq_web_suggest",
    `CREATE TABLE orders (id int PRIMARY KEY, ordered_at timestamptz);
     CREATE TABLE store_managers (id int PRIMARY KEY, name text);
     CREATE TABLE salaries (id int PRIMARY KEY, amount numeric);
     CREATE ROLE ${role} LOGIN;
     GRANT SELECT ON orders, store_managers TO ${role};`,
  );
});

afterAll(async () => {
  await database?.drop();
  await dropTestRole(role);
});

describe("suggested questions", () => {
  it("asks about the tables the role may read, not the others", async () => {
    const client = new pg.Client({ connectionString: database.urlFor(role) });
    await client.connect();
    try {
      const result = await client.query<{ relname: string; has_time: boolean }>(readableTablesSql, [10]);
      const tables: SuggestedTable[] = result.rows.map((row) => ({ name: row.relname, hasTime: row.has_time }));
      expect(tables.map((table) => table.name).sort()).toEqual(["orders", "store_managers"]);
      expect(questionsOfTables(tables)).toEqual(
        expect.arrayContaining([
          "how many orders are there?",
          "how many orders per month?",
          "how many store managers are there?",
        ]),
      );
      expect(questionsOfTables(tables).join(" ")).not.toContain("salaries");
    } finally {
      await client.end();
    }
  });

  it("puts verified examples first, and with a scripted model offers only the questions it recorded", () => {
    expect(
      suggestionsFor({
        recordedQuestions: undefined,
        verifiedQuestions: ["How many orders are there?", "top stores by revenue"],
        tables: [{ name: "orders", hasTime: false }],
      }),
    ).toEqual(["How many orders are there?", "top stores by revenue"]);
    const recorded = ["q1?", "q2?", "q3?", "q4?", "q5?", "q6?", "q7?"];
    expect(suggestionsFor({ recordedQuestions: recorded, verifiedQuestions: ["x"], tables: [] })).toEqual(
      recorded.slice(0, 6),
    );
  });
});
