import { describe, expect, it } from "vitest";
import { extractKeywordsOutputSchema, extractKeywordsPrompt } from "./extract-keywords-prompt";

describe("extract keywords prompt", () => {
  it("renders the few-shot prompt", () => {
    expect(
      extractKeywordsPrompt({
        question: "List the singers from France born after 1990.",
        examples: [{ question: "How many cats are black?", keywords: ["cats", "black"] }],
      }),
    ).toMatchInlineSnapshot(`
      "Objective: analyze the question and hint to identify and extract keywords, keyphrases and named entities. They will be used to search the database's values and its schema descriptions.

      Instructions:
      1. Read the question carefully: look for named entities (organizations, places, people, products), technical terms, numbers, dates and phrases that capture what is asked.
      2. Analyze the hint: extract the keywords, phrases or named entities it mentions.
      3. List the keywords (single words) and keyphrases (short phrases, named entities) from both in one list. Keep the original spelling and phrasing of the question and hint.

      Examples:

      Question: How many cats are black?
      Hint: none
      Answer: {"keywords":["cats","black"]}

      Task: identify the keywords, keyphrases and named entities of this question and hint.

      Question: List the singers from France born after 1990.
      Hint: none
      Answer:"
    `);
  });

  it("validates the output", () => {
    expect(extractKeywordsOutputSchema.safeParse({ keywords: ["France", "singers"] }).success).toBe(true);
    expect(extractKeywordsOutputSchema.safeParse({ keywords: "France" }).success).toBe(false);
  });
});
