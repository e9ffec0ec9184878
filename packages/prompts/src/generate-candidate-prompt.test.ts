import { describe, expect, it } from "vitest";
import { generateCandidatePrompt } from "./generate-candidate-prompt";
import { sqlCandidateOutputSchema } from "./sql-candidate-output";

describe("generateCandidatePrompt", () => {
  it("renders schema, question and hint", () => {
    expect(
      generateCandidatePrompt({
        schema: "CREATE TABLE customers (\n  id integer PRIMARY KEY\n);",
        question: "How many customers are there?",
        hint: "customers are rows of customers",
      }),
    ).toMatchInlineSnapshot(`
      "Below, you are presented with a database schema and a question.
      Your task is to read the schema, understand the question, and generate a valid PostgreSQL query to answer the question.
      Before generating the final SQL query think step by step on how to write the query.

      Database Schema:
      CREATE TABLE customers (
        id integer PRIMARY KEY
      );

      This schema describes the database's tables, columns, primary keys, foreign keys and comments. Pay special attention to the example values listed beside columns: they hint at which columns are relevant and how values are spelled.

      Database admin instructions:
      - Write exactly one read-only SELECT statement (WITH … SELECT is allowed) in the PostgreSQL dialect. Never modify data.
      - Only output the information asked in the question. If the question asks for a specific column, only include that column in the SELECT clause, nothing more.
      - The query should return all of the information asked in the question without any missing or extra information.
      - Quote identifiers with double quotes only when they need it (mixed case, reserved words, spaces).
      - Filter text with the exact spelling of the example values; use ILIKE only when the question leaves spelling or case open.
      - Integer division truncates in PostgreSQL: cast to numeric for ratios, averages of integers and percentages.
      - Use PostgreSQL date and time functions (date_trunc, extract, intervals, now()) for dates.
      - Add LIMIT only when the question asks for a number of results; the application caps the rows it shows.
      - If the question cannot be answered from this schema, return an empty "sql" and explain why in "reasoning".

      Question:
      How many customers are there?

      Hint:
      customers are rows of customers

      Please respond with a JSON object structured as follows:
      {
        "reasoning": "Your thought process on how you arrived at the final SQL query.",
        "sql": "Your SQL query in a single string."
      }

      Take a deep breath and think step by step to find the correct PostgreSQL query."
    `);
  });

  it("lists earlier turns of the conversation before the question", () => {
    const prompt = generateCandidatePrompt({
      schema: "S",
      question: "and in 2024?",
      previousTurns: [{ question: "How many orders in 2025?", sql: "SELECT count(*)\n FROM orders WHERE year = 2025" }],
    });
    expect(prompt).toContain(
      "Earlier questions in this conversation (the question below may refer to them):\n1. How many orders in 2025?\n   SQL: SELECT count(*) FROM orders WHERE year = 2025\n\nQuestion:\nand in 2024?",
    );
  });

  it("says (none) when there is no hint", () => {
    expect(generateCandidatePrompt({ schema: "S", question: "Q", hint: "  " })).toContain("Hint:\n(none)\n");
  });

  it("has an output schema with reasoning and sql", () => {
    expect(sqlCandidateOutputSchema.parse({ reasoning: "r", sql: "SELECT 1" })).toEqual({
      reasoning: "r",
      sql: "SELECT 1",
    });
    expect(sqlCandidateOutputSchema.safeParse({ reasoning: "r" }).success).toBe(false);
  });
});

describe("generateCandidatePrompt with verified examples", () => {
  it("shows them as demonstrations after the instructions and before the earlier turns and the question", () => {
    const prompt = generateCandidatePrompt({
      schema: "S",
      question: "and in 2024?",
      examples: [{ question: "How many orders are there?", sql: "SELECT count(*)\nFROM orders" }],
      previousTurns: [{ question: "How many orders in 2025?" }],
    });
    expect(prompt).toContain(
      "Verified examples on this database (questions answered correctly before and the PostgreSQL query that answers each; follow their conventions for tables, joins and values where they apply, but answer only the question below):\nExample 1)\nQuestion: How many orders are there?\nSQL:\nSELECT count(*)\nFROM orders\n\nEarlier questions in this conversation",
    );
    expect(prompt.indexOf("Database admin instructions")).toBeLessThan(prompt.indexOf("Verified examples"));
    expect(prompt.indexOf("Verified examples")).toBeLessThan(prompt.indexOf("Question:\nand in 2024?"));
  });
});
