import { describe, expect, it } from "vitest";
import {
  evaluateUnitTestOutputSchema,
  evaluateUnitTestPrompt,
  generateUnitTestsOutputSchema,
  generateUnitTestsPrompt,
} from "./unit-test-prompts";

const schema = 'CREATE TABLE "public"."items" (\n  "name" text,\n  "price" numeric\n);';
const candidates = [
  { sql: "SELECT name FROM items ORDER BY price LIMIT 1", result: "name\nMug\n(1 row)" },
  { sql: "SELECT name FROM items ORDER BY price DESC LIMIT 1", result: "name\nRug\n(1 row)" },
];

describe("unit test prompts", () => {
  it("renders generate_unit_tests with the clusters and k", () => {
    expect(
      generateUnitTestsPrompt({
        schema,
        question: "Which item is the cheapest?",
        hint: "cheap = low price",
        candidates,
        count: 3,
      }),
    ).toMatchInlineSnapshot(`
      "** Instructions: **

      Given the following question, database schema and candidate responses, generate a set of 3 unit tests that would evaluate the correctness of PostgreSQL queries that would answer the question.
      Unit tests should be designed in a way that distinguishes the candidate responses from each other.

      - The unit tests should cover various aspects of the question and ensure comprehensive evaluation.
      - Each unit test should be clearly stated and should include the expected outcome.
      - Each unit test should be designed in a way that it can distinguish at least two candidate responses from each other.
      - The unit test should be formatted like 'The answer SQL query should mention...', 'The answer SQL query should state...', 'The answer SQL query should use...', etc. followed by the expected outcome.
      - First think step by step how you can design the unit tests to distinguish the candidate responses.

      VERY IMPORTANT:
      All of the unit tests should consider the logic of the SQL query; do not consider the formatting of the output or output values.

      You are provided with different clusters of the candidate responses. Each cluster's responses return the same result; one response of each cluster is shown with that result.
      You MUST generate test cases that can distinguish between the candidate responses of different clusters, and the test cases should promote the candidate responses that you think are correct.

      *** Database Schema: ***
      CREATE TABLE "public"."items" (
        "name" text,
        "price" numeric
      );

      *** Candidate Clusters: ***
      Candidate Response #1:
      SELECT name FROM items ORDER BY price LIMIT 1
      Execution result:
      name
      Mug
      (1 row)

      Candidate Response #2:
      SELECT name FROM items ORDER BY price DESC LIMIT 1
      Execution result:
      name
      Rug
      (1 row)

      *** Question: ***
      Question: Which item is the cheapest? (Hint: cheap = low price)

      Respond with a JSON object {"reasoning": "<your step-by-step design>", "unitTests": ["The answer SQL query should ...", ...]} holding exactly 3 unit tests."
    `);
  });

  it("renders evaluate for one unit test and every candidate", () => {
    expect(
      evaluateUnitTestPrompt({
        schema,
        question: "Which item is the cheapest?",
        candidates,
        unitTest: "The answer SQL query should order by price ascending.",
      }),
    ).toMatchInlineSnapshot(`
      "** Instructions: **

      Given the following question, database schema, candidate PostgreSQL query responses and a unit test, evaluate whether or not each response passes the unit test.

      - In your evaluation, you should consider how the responses align with the given unit test.
      - Provide your reasoning before the verdicts.
      - You must give one verdict per candidate response, either "Passed" or "Failed", in the same order as the candidates are provided.

      *** Database Schema: ***
      CREATE TABLE "public"."items" (
        "name" text,
        "price" numeric
      );

      *** Candidate Responses: ***
      Candidate Response #1:
      SELECT name FROM items ORDER BY price LIMIT 1
      Execution result:
      name
      Mug
      (1 row)

      Candidate Response #2:
      SELECT name FROM items ORDER BY price DESC LIMIT 1
      Execution result:
      name
      Rug
      (1 row)

      *** Question: ***
      Question: Which item is the cheapest? (Hint: none)

      *** Unit Test: ***
      The answer SQL query should order by price ascending.

      Respond with a JSON object {"reasoning": "<your step-by-step evaluation>", "verdicts": ["Passed" or "Failed", "Passed" or "Failed"]} with exactly 2 verdicts."
    `);
  });

  it("requires Passed/Failed verdicts; an empty test list parses (the selector rejects it after parsing)", () => {
    expect(generateUnitTestsOutputSchema.safeParse({ reasoning: "", unitTests: [] }).success).toBe(true);
    expect(generateUnitTestsOutputSchema.safeParse({ reasoning: "" }).success).toBe(false);
    expect(evaluateUnitTestOutputSchema.safeParse({ reasoning: "", verdicts: ["Passed", "Maybe"] }).success).toBe(
      false,
    );
  });
});
