import { type PromptQuestionContext, renderQuestionContext } from "./question-context-section";

/**
 * Sections every SQL-generation prompt shares (one-shot, divide-and-conquer, query plan, few-shot from examples):
 * PostgreSQL instructions, verified examples as demonstrations, earlier turns of the conversation, the hint and the
 * JSON answer format.
 */

/** One earlier question of the conversation and the SQL that answered it. */
export interface PromptTurn {
  readonly question: string;
  readonly sql?: string;
}

/** A question and the PostgreSQL query that answers it (a verified example, or a synthetic one). */
export interface PromptExample {
  readonly question: string;
  readonly sql: string;
}

/** What every SQL-writing prompt (one-shot, divide-and-conquer, query plan, few-shot from examples) is given. */
export interface SqlGenerationPromptOptions {
  /** The selected schema rendered as DDL (the engine's `renderSchema`), in this sample's order. */
  readonly schema: string;
  readonly question: string;
  /** Optional evidence or hint from the user; "(none)" when empty. */
  readonly hint?: string;
  /** Earlier turns of the conversation, oldest first, so follow-ups resolve. Default: none (section omitted). */
  readonly previousTurns?: readonly PromptTurn[];
  /** Verified question–SQL pairs of this database, shown as demonstrations. Default: none (section omitted). */
  readonly examples?: readonly PromptExample[];
  /** The knowledge retrieved for the question and the session's date. Default: none (section omitted). */
  readonly questionContext?: PromptQuestionContext;
}

/** What the database's administrator requires of every query; adapted from CHESS/CHASE-SQL (SQLite) to PostgreSQL. */
export const postgresqlInstructions: readonly string[] = [
  "Write exactly one read-only SELECT statement (WITH … SELECT is allowed) in the PostgreSQL dialect. Never modify data.",
  "Only output the information asked in the question. If the question asks for a specific column, only include that column in the SELECT clause, nothing more.",
  "The query should return all of the information asked in the question without any missing or extra information.",
  "Quote identifiers with double quotes only when they need it (mixed case, reserved words, spaces).",
  "Filter text with the exact spelling of the example values; use ILIKE only when the question leaves spelling or case open.",
  "Integer division truncates in PostgreSQL: cast to numeric for ratios, averages of integers and percentages.",
  "Use PostgreSQL date and time functions (date_trunc, extract, intervals, now()) for dates.",
  "Add LIMIT only when the question asks for a number of results; the application caps the rows it shows.",
  'If the question cannot be answered from this schema, return an empty "sql" and explain why in "reasoning".',
];

/** PostgreSQL instructions that matter most when the model reasons through a query step by step. */
export const postgresqlReasoningInstructions: readonly string[] = [
  "PostgreSQL sorts NULL as larger than every value: NULLs come last in ascending and first in descending order. For the largest value of a nullable column, use ORDER BY … DESC NULLS LAST (or filter IS NOT NULL).",
  "Every non-aggregated column of the SELECT list must appear in GROUP BY (or be functionally dependent on a grouped primary key).",
  "Compare text case-sensitively with =; string concatenation is ||; cast text to numbers or dates explicitly before comparing.",
];

export function renderInstructions(lines: readonly string[]): string {
  return lines.map((line) => `- ${line}`).join("\n");
}

/** "(none)" for an empty hint. */
export function renderHint(hint: string | undefined): string {
  return hint?.trim() ? hint.trim() : "(none)";
}

/** Earlier turns, oldest first, each followed by its SQL on one line; "" (section omitted) when there are none. */
export function renderPreviousTurns(turns: readonly PromptTurn[] | undefined): string {
  if (!turns || turns.length === 0) return "";
  const lines = turns.map(
    (turn, index) =>
      `${index + 1}. ${turn.question.trim()}${turn.sql ? `\n   SQL: ${turn.sql.replace(/\s+/g, " ").trim()}` : ""}`,
  );
  return `Earlier questions in this conversation (the question below may refer to them):
${lines.join("\n")}

`;
}

/** Examples as numbered question/SQL pairs. */
export function renderExamplePairs(examples: readonly PromptExample[]): string {
  return examples
    .map((example, index) => `Example ${index + 1})\nQuestion: ${example.question.trim()}\nSQL:\n${example.sql.trim()}`)
    .join("\n\n");
}

/**
 * Verified question–SQL pairs of this database as demonstrations, ending in a blank line; "" (section omitted) when
 * there are none.
 */
export function renderVerifiedExamples(examples: readonly PromptExample[] | undefined): string {
  if (!examples || examples.length === 0) return "";
  return `Verified examples on this database (questions answered correctly before and the PostgreSQL query that answers each; follow their conventions for tables, joins and values where they apply, but answer only the question below):
${renderExamplePairs(examples)}

`;
}

/** The JSON object every SQL-generation step answers with (`sqlCandidateOutputSchema`). */
export function renderSqlAnswerFormat(
  reasoning: string,
  sql = "Your final PostgreSQL query in a single string.",
): string {
  return `Please respond with a JSON object structured as follows:
{
  "reasoning": "${reasoning}",
  "sql": "${sql}"
}`;
}

/** What distinguishes one CHASE-SQL chain-of-thought generator's prompt (divide and conquer, query plan). */
export interface ChainOfThoughtMethod {
  /** How the method works, in numbered steps, after the shared opening. */
  readonly description: string;
  /** The worked demonstration on another database. */
  readonly demonstration: string;
  /** What the real task asks for, e.g. "with a query plan". */
  readonly task: string;
  /** What the `reasoning` field holds. */
  readonly reasoningFormat: string;
}

/**
 * The prompt shape CHASE-SQL's chain-of-thought generators share (appendix A.8, A.9): the opening on the schema and its
 * example values, the method, the PostgreSQL instructions, the demonstration, then the real task and the JSON format.
 */
export function chainOfThoughtSqlPrompt(method: ChainOfThoughtMethod, options: SqlGenerationPromptOptions): string {
  return `You are an experienced database expert. Now you need to generate a PostgreSQL query given the database information, a question and some additional information.
The database structure is defined by the following table creation statements (comments after '--' give column descriptions and example values).
The example values are actual values from the column. Some columns may contain values that are directly related to the question: use them to decide which columns to use and how to spell values.

${method.description}

Database admin instructions:
${renderInstructions([...postgresqlInstructions, ...postgresqlReasoningInstructions])}

Here is an example of the method on another database:

${method.demonstration}

Now the real task. Repeat the question and hint, and write the PostgreSQL query ${method.task}.

Database Info
${options.schema.trim()}

${renderVerifiedExamples(options.examples)}${renderPreviousTurns(options.previousTurns)}${renderQuestionContext(options.questionContext)}**Question**: ${options.question.trim()}
**Hint**: ${renderHint(options.hint)}

${renderSqlAnswerFormat(method.reasoningFormat, "The final optimized PostgreSQL query in a single string.")}`;
}
