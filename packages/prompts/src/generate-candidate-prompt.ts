import {
  postgresqlInstructions,
  renderHint,
  renderInstructions,
  renderPreviousTurns,
  renderSqlAnswerFormat,
  renderVerifiedExamples,
  type SqlGenerationPromptOptions,
} from "./generation-prompt-sections";
import { renderQuestionContext } from "./question-context-section";

/**
 * One-shot candidate generation with chain of thought, after CHESS appendix C (Figure 11, generate_candidate_query),
 * adapted to PostgreSQL. Output: `sqlCandidateOutputSchema`.
 */
export type GenerateCandidatePromptOptions = SqlGenerationPromptOptions;

export const generateCandidateSystemPrompt =
  "You are a data science expert who writes correct, read-only PostgreSQL queries. Answer only with the requested JSON object.";

export function generateCandidatePrompt(options: GenerateCandidatePromptOptions): string {
  return `Below, you are presented with a database schema and a question.
Your task is to read the schema, understand the question, and generate a valid PostgreSQL query to answer the question.
Before generating the final SQL query think step by step on how to write the query.

Database Schema:
${options.schema.trim()}

This schema describes the database's tables, columns, primary keys, foreign keys and comments. Pay special attention to the example values listed beside columns: they hint at which columns are relevant and how values are spelled.

Database admin instructions:
${renderInstructions(postgresqlInstructions)}

${renderVerifiedExamples(options.examples)}${renderPreviousTurns(options.previousTurns)}${renderQuestionContext(options.questionContext)}Question:
${options.question.trim()}

Hint:
${renderHint(options.hint)}

${renderSqlAnswerFormat("Your thought process on how you arrived at the final SQL query.", "Your SQL query in a single string.")}

Take a deep breath and think step by step to find the correct PostgreSQL query.`;
}
