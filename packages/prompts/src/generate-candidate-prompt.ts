/**
 * One-shot candidate generation with chain of thought, after CHESS appendix C (Figure 11, generate_candidate_query),
 * adapted to PostgreSQL. Output: `sqlCandidateOutputSchema`.
 */
export interface GenerateCandidatePromptOptions {
  /** The database schema rendered as DDL (see core's `renderSchema`). */
  readonly schema: string;
  readonly question: string;
  /** Optional evidence or hint from the user; "(none)" when empty. */
  readonly hint?: string;
  /** Earlier turns of the conversation, oldest first, so follow-ups ("and in 2024?") resolve. Default: none (section omitted). */
  readonly previousTurns?: ReadonlyArray<{ readonly question: string; readonly sql?: string }>;
}

function renderTurns(turns: GenerateCandidatePromptOptions["previousTurns"]): string {
  if (!turns || turns.length === 0) return "";
  const lines = turns.map(
    (turn, index) =>
      `${index + 1}. ${turn.question.trim()}${turn.sql ? `\n   SQL: ${turn.sql.replace(/\s+/g, " ").trim()}` : ""}`,
  );
  return `Earlier questions in this conversation (the question below may refer to them):
${lines.join("\n")}

`;
}

export const generateCandidateSystemPrompt =
  "You are a data science expert who writes correct, read-only PostgreSQL queries. Answer only with the requested JSON object.";

export function generateCandidatePrompt(options: GenerateCandidatePromptOptions): string {
  const hint = options.hint?.trim() ? options.hint.trim() : "(none)";
  return `Below, you are presented with a database schema and a question.
Your task is to read the schema, understand the question, and generate a valid PostgreSQL query to answer the question.
Before generating the final SQL query think step by step on how to write the query.

Database Schema:
${options.schema.trim()}

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

${renderTurns(options.previousTurns)}Question:
${options.question.trim()}

Hint:
${hint}

Please respond with a JSON object structured as follows:
{
  "reasoning": "Your thought process on how you arrived at the final SQL query.",
  "sql": "Your SQL query in a single string."
}

Take a deep breath and think step by step to find the correct PostgreSQL query.`;
}
