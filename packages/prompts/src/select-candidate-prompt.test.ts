import { describe, expect, it } from "vitest";
import { selectCandidateOutputSchema, selectCandidatePrompt } from "./select-candidate-prompt";

describe("selectCandidatePrompt", () => {
  it("renders the A.11 selection prompt with both candidates and their results", () => {
    expect(
      selectCandidatePrompt({
        schema: 'CREATE TABLE "public"."items" (\n  "name" text,\n  "price" numeric\n);',
        question: "Which item is the cheapest?",
        candidateA: { sql: "SELECT name FROM items ORDER BY price LIMIT 1", result: "name\nMug\n(1 row)" },
        candidateB: { sql: "SELECT name FROM items ORDER BY price DESC LIMIT 1", result: "name\nRug\n(1 row)" },
      }),
    ).toMatchInlineSnapshot(`
      "Instruction:
      Given the database info and the question, there are two candidate PostgreSQL queries. One is correct and one is incorrect. Compare the two candidates, analyse the differences between the queries and between their results, and, based on the original question and the provided database info, choose the correct one.

      Database Schema:
      CREATE TABLE "public"."items" (
        "name" text,
        "price" numeric
      );

      Question:
      Which item is the cheapest?

      Evidence:
      (none)

      ******
      Candidate A
      SELECT name FROM items ORDER BY price LIMIT 1
      Execution result
      name
      Mug
      (1 row)

      ******
      Candidate B
      SELECT name FROM items ORDER BY price DESC LIMIT 1
      Execution result
      name
      Rug
      (1 row)

      Respond with a JSON object {"reasoning": "<the difference that decides, in one or two sentences>", "answer": "A" or "B"}."
    `);
  });

  it("accepts an answer with reasoning or null, and only A or B", () => {
    expect(selectCandidateOutputSchema.parse({ reasoning: null, answer: "B" })).toEqual({
      reasoning: null,
      answer: "B",
    });
    expect(selectCandidateOutputSchema.safeParse({ answer: "B" }).success).toBe(false);
    expect(selectCandidateOutputSchema.safeParse({ answer: "C" }).success).toBe(false);
  });
});
