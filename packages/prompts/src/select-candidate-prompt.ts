import { z } from "zod";
import { type PromptQuestionContext, renderQuestionContext } from "./question-context-section";

/** One side of a pairwise comparison: the query and a rendered preview of its execution result. */
export interface PairwiseCandidate {
  readonly sql: string;
  /** The execution result as text (a few rows, e.g. a header line and one line per row). */
  readonly result: string;
}

export interface SelectCandidatePromptOptions {
  /** The union of the tables and columns the two candidates use, rendered as DDL. */
  readonly schema: string;
  readonly question: string;
  /** Optional evidence or hint from the user. */
  readonly hint?: string;
  /** The knowledge retrieved for the question and the session's date. Default: none (section omitted). */
  readonly questionContext?: PromptQuestionContext;
  readonly candidateA: PairwiseCandidate;
  readonly candidateB: PairwiseCandidate;
}

/**
 * Output of `select-candidate`: which of the two candidates answers the question; the reasoning may be null. Every
 * property is required (null stands for "none"), as OpenAI's strict structured outputs demand.
 */
export const selectCandidateOutputSchema = z.object({
  reasoning: z.string().nullable().describe("One or two sentences on the difference that decides, or null."),
  answer: z.enum(["A", "B"]).describe('"A" or "B": the candidate that answers the question correctly.'),
});

export type SelectCandidateOutput = z.infer<typeof selectCandidateOutputSchema>;

export const selectCandidateSystemPrompt =
  "You are a PostgreSQL expert who judges which of two queries answers a question. Answer only with the requested JSON object.";

/**
 * The CHASE-SQL selection agent prompt (appendix A.11), adapted to PostgreSQL: the schema is the union of the two
 * candidates' tables and columns, each candidate is shown with its execution result, and the answer is "A" or "B".
 * The caller asks both orders (A/B and B/A) to cancel position bias (Algorithm 3).
 */
export function selectCandidatePrompt(options: SelectCandidatePromptOptions): string {
  const hint = options.hint?.trim() ? options.hint.trim() : "(none)";
  return `Instruction:
Given the database info and the question, there are two candidate PostgreSQL queries. One is correct and one is incorrect. Compare the two candidates, analyse the differences between the queries and between their results, and, based on the original question and the provided database info, choose the correct one.

Database Schema:
${options.schema.trim()}

${renderQuestionContext(options.questionContext)}Question:
${options.question.trim()}

Evidence:
${hint}

******
Candidate A
${options.candidateA.sql.trim()}
Execution result
${options.candidateA.result.trim()}

******
Candidate B
${options.candidateB.sql.trim()}
Execution result
${options.candidateB.result.trim()}

Respond with a JSON object {"reasoning": "<the difference that decides, in one or two sentences>", "answer": "A" or "B"}.`;
}
