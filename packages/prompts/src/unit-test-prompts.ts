import { z } from "zod";

/** A cluster of candidates with the same result, as the unit tester shows it: its representative and its result. */
export interface UnitTestCandidate {
  readonly sql: string;
  /** The execution result as text (a few rows). */
  readonly result: string;
}

export interface GenerateUnitTestsPromptOptions {
  /** The database schema rendered as DDL. */
  readonly schema: string;
  readonly question: string;
  readonly hint?: string;
  /** One entry per result cluster. */
  readonly candidates: readonly UnitTestCandidate[];
  /** How many unit tests to write (k). */
  readonly count: number;
}

/**
 * Output of `generate-unit-tests`: the reasoning and the natural-language unit tests. "At least one" is not a schema
 * constraint (`minItems` is not accepted by every provider's structured outputs): the selector checks it after parsing.
 */
export const generateUnitTestsOutputSchema = z.object({
  reasoning: z.string().describe("How the tests were designed to tell the candidates apart."),
  unitTests: z
    .array(z.string())
    .describe("Unit tests, each like 'The answer SQL query should …' with the expected outcome."),
});

export type GenerateUnitTestsOutput = z.infer<typeof generateUnitTestsOutputSchema>;

export const unitTestSystemPrompt =
  "You are a PostgreSQL expert who tests queries against a question. Answer only with the requested JSON object.";

function candidateBlock(candidates: readonly UnitTestCandidate[]): string {
  return candidates
    .map(
      (candidate, position) =>
        `Candidate Response #${position + 1}:\n${candidate.sql.trim()}\nExecution result:\n${candidate.result.trim()}`,
    )
    .join("\n\n");
}

/**
 * CHESS's `generate_unit_tests` prompt (appendix C, Figure 13), adapted to PostgreSQL and JSON output: k
 * natural-language unit tests that only a correct query passes and that tell the result clusters apart.
 */
export function generateUnitTestsPrompt(options: GenerateUnitTestsPromptOptions): string {
  const hint = options.hint?.trim() ? options.hint.trim() : "none";
  return `** Instructions: **

Given the following question, database schema and candidate responses, generate a set of ${options.count} unit tests that would evaluate the correctness of PostgreSQL queries that would answer the question.
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
${options.schema.trim()}

*** Candidate Clusters: ***
${candidateBlock(options.candidates)}

*** Question: ***
Question: ${options.question.trim()} (Hint: ${hint})

Respond with a JSON object {"reasoning": "<your step-by-step design>", "unitTests": ["The answer SQL query should ...", ...]} holding exactly ${options.count} unit tests.`;
}

export interface EvaluateUnitTestPromptOptions {
  readonly schema: string;
  readonly question: string;
  readonly hint?: string;
  /** The cluster representatives, in the order the verdicts must follow. */
  readonly candidates: readonly UnitTestCandidate[];
  /** The one unit test to evaluate every candidate against. */
  readonly unitTest: string;
}

/** Output of `evaluate-unit-tests`: the reasoning and one verdict per candidate, in the order shown. */
export const evaluateUnitTestOutputSchema = z.object({
  reasoning: z.string().describe("Step-by-step evaluation of each candidate against the unit test."),
  verdicts: z
    .array(z.enum(["Passed", "Failed"]))
    .describe("One verdict per candidate response, in the order the candidates are given."),
});

export type EvaluateUnitTestOutput = z.infer<typeof evaluateUnitTestOutputSchema>;

/**
 * CHESS's `evaluate` prompt (appendix C, Figure 14), adapted to PostgreSQL and JSON output: every candidate against
 * one unit test in one call (CHESS found this better than one candidate against all tests: the model compares).
 */
export function evaluateUnitTestPrompt(options: EvaluateUnitTestPromptOptions): string {
  const hint = options.hint?.trim() ? options.hint.trim() : "none";
  return `** Instructions: **

Given the following question, database schema, candidate PostgreSQL query responses and a unit test, evaluate whether or not each response passes the unit test.

- In your evaluation, you should consider how the responses align with the given unit test.
- Provide your reasoning before the verdicts.
- You must give one verdict per candidate response, either "Passed" or "Failed", in the same order as the candidates are provided.

*** Database Schema: ***
${options.schema.trim()}

*** Candidate Responses: ***
${candidateBlock(options.candidates)}

*** Question: ***
Question: ${options.question.trim()} (Hint: ${hint})

*** Unit Test: ***
${options.unitTest.trim()}

Respond with a JSON object {"reasoning": "<your step-by-step evaluation>", "verdicts": [${options.candidates.map(() => '"Passed" or "Failed"').join(", ")}]} with exactly ${options.candidates.length} verdicts.`;
}
