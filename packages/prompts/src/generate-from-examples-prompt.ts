import {
  type PromptExample,
  postgresqlInstructions,
  renderExamplePairs,
  renderHint,
  renderInstructions,
  renderPreviousTurns,
  renderSqlAnswerFormat,
  renderVerifiedExamples,
  type SqlGenerationPromptOptions,
} from "./generation-prompt-sections";
import { renderQuestionContext } from "./question-context-section";

/**
 * The second call of CHASE-SQL's online synthetic example generator (§2.3, Algorithm 2): many-shot in-context
 * learning with the examples synthesised for this question as demonstrations, together with any verified examples of
 * the database, then the selected schema and the question. Output: `sqlCandidateOutputSchema`.
 */
export interface GenerateFromExamplesPromptOptions extends SqlGenerationPromptOptions {
  /** Examples synthesised for this question (`synthesize-examples`). */
  readonly syntheticExamples: readonly PromptExample[];
}

export const generateFromExamplesSystemPrompt =
  "You are a data science expert who writes correct, read-only PostgreSQL queries, learning the database's conventions from examples. Answer only with the requested JSON object.";

export function generateFromExamplesPrompt(options: GenerateFromExamplesPromptOptions): string {
  const synthetic =
    options.syntheticExamples.length > 0
      ? `Examples of questions on this database and the PostgreSQL queries that answer them (written for illustration; they show how the tables, joins, values and SQL features of this database are used):
${renderExamplePairs(options.syntheticExamples)}

`
      : "";
  return `You are given examples of questions about a PostgreSQL database with the queries that answer them, then the database schema and a new question.
Learn from the examples how this database's tables, columns, joins and values are used, then write the query for the new question. The examples show patterns, not the answer: use only what the new question asks for, and prefer the simplest query that answers it.

${synthetic}${renderVerifiedExamples(options.examples)}Database Schema:
${options.schema.trim()}

Database admin instructions:
${renderInstructions(postgresqlInstructions)}

${renderPreviousTurns(options.previousTurns)}${renderQuestionContext(options.questionContext)}Question:
${options.question.trim()}

Hint:
${renderHint(options.hint)}

${renderSqlAnswerFormat("Your thought process: which examples are similar to the question, which tables, columns and values it needs, and how you arrived at the final SQL query.")}

Think step by step to find the correct PostgreSQL query.`;
}
