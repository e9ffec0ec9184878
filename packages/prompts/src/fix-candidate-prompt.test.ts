import { describe, expect, it } from "vitest";
import { fixCandidatePrompt } from "./fix-candidate-prompt";

describe("fixCandidatePrompt", () => {
  it("renders an execution error with its SQLSTATE", () => {
    expect(
      fixCandidatePrompt({
        schema: "CREATE TABLE customers (\n  id integer PRIMARY KEY\n);",
        question: "How many customers are there?",
        sql: "SELECT count(*) FROM customer",
        issue: { kind: "error", code: "42P01", message: 'relation "customer" does not exist' },
      }),
    ).toMatchInlineSnapshot(`
      "Objective: a PostgreSQL query written for the question below did not work. Find the problem and return a corrected query that follows the database admin instructions and uses the correct conditions.

      Database Schema:
      CREATE TABLE customers (
        id integer PRIMARY KEY
      );

      Database admin instructions:
      - Write exactly one read-only SELECT statement (WITH … SELECT is allowed) in the PostgreSQL dialect. Never modify data.
      - Only output the information asked in the question, without any missing or extra columns.
      - Use only tables and columns that exist in the schema above.
      - For an empty result, compare filter values with the example values (spelling, case, format) and check the joins.
      - If an empty result is the correct answer, return the query unchanged.

      Question:
      How many customers are there?

      Hint:
      (none)

      Predicted query:
      SELECT count(*) FROM customer

      Query result:
      The query failed with PostgreSQL error 42P01: relation "customer" does not exist

      Please respond with a JSON object structured as follows:
      {
        "reasoning": "Your thought process on what went wrong and how you fixed it.",
        "sql": "Your revised SQL query in a single string."
      }

      Take a deep breath and think step by step to find the correct PostgreSQL query."
    `);
  });

  it("describes an empty result", () => {
    const prompt = fixCandidatePrompt({
      schema: "S",
      question: "Q",
      sql: "SELECT 1 WHERE false",
      issue: { kind: "empty" },
    });
    expect(prompt).toContain("Query result:\nThe query ran but returned no rows.");
  });
});
