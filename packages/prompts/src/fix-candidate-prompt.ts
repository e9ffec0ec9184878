import { type PromptQuestionContext, renderQuestionContext } from "./question-context-section";

/**
 * Query fixer, after the CHESS revise tool (appendix C, Figure 12) and the CHASE-SQL query fixer: the faulty query,
 * what went wrong (PostgreSQL's SQLSTATE and message, or an empty result) and the schema. Output: `sqlCandidateOutputSchema`.
 */
export interface FixCandidatePromptOptions {
  /** The database schema rendered as DDL. */
  readonly schema: string;
  readonly question: string;
  /** Optional evidence or hint from the user. */
  readonly hint?: string;
  /** The knowledge retrieved for the question and the session's date. Default: none (section omitted). */
  readonly questionContext?: PromptQuestionContext;
  /** The query that failed or returned nothing. */
  readonly sql: string;
  /** What happened: an error with its SQLSTATE, or an empty result. */
  readonly issue:
    | { readonly kind: "error"; readonly code: string; readonly message: string }
    | { readonly kind: "empty" };
}

export const fixCandidateSystemPrompt =
  "You are a PostgreSQL expert who repairs queries. Answer only with the requested JSON object.";

export function fixCandidatePrompt(options: FixCandidatePromptOptions): string {
  const hint = options.hint?.trim() ? options.hint.trim() : "(none)";
  const result =
    options.issue.kind === "error"
      ? `The query failed with PostgreSQL error ${options.issue.code}: ${options.issue.message}`
      : "The query ran but returned no rows. Check the filter values (spelling, case, format) against the example values, and the join conditions.";
  return `Objective: a PostgreSQL query written for the question below did not work. Find the problem and return a corrected query that follows the database admin instructions and uses the correct conditions.

Database Schema:
${options.schema.trim()}

Database admin instructions:
- Write exactly one read-only SELECT statement (WITH … SELECT is allowed) in the PostgreSQL dialect. Never modify data.
- Only output the information asked in the question, without any missing or extra columns.
- Use only tables and columns that exist in the schema above.
- For an empty result, compare filter values with the example values (spelling, case, format) and check the joins.
- If an empty result is the correct answer, return the query unchanged.

${renderQuestionContext(options.questionContext)}Question:
${options.question.trim()}

Hint:
${hint}

Predicted query:
${options.sql.trim()}

Query result:
${result}

Please respond with a JSON object structured as follows:
{
  "reasoning": "Your thought process on what went wrong and how you fixed it.",
  "sql": "Your revised SQL query in a single string."
}

Take a deep breath and think step by step to find the correct PostgreSQL query.`;
}
