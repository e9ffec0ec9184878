import { sqlCandidateOutputSchema } from "@nlq/prompts";
import { ModelOutputError } from "../errors/model-errors";
import { UnanswerableQuestionError } from "../errors/question-errors";
import type { StepContext } from "../llm/step-context";
import type { StepName } from "../steps/step-registry";
import type { GeneratedCandidate } from "./candidate-generator";
import { extractSql } from "./extract-sql";

export interface WriteSqlOptions {
  readonly context: StepContext;
  readonly step: StepName;
  readonly system: string;
  readonly prompt: string;
  readonly sample: number;
  readonly temperature: number;
}

/**
 * One SQL-writing model call shared by every generator: asks for `{ reasoning, sql }` (`sqlCandidateOutputSchema`)
 * and recovers the query with `extractSql` from what the model put in `sql` (fences, prose, several blocks, trailing
 * semicolons; text that is not a query is passed on as written, for validation to refuse). A model that answers in free text instead of JSON (a long chain of thought ending in a fenced query) is
 * still read: the query is extracted from its whole text. An empty query means the model judged the question
 * unanswerable → `UnanswerableQuestionError` with its reasoning. Other failures propagate (`ModelOutputError` when the
 * text holds no query at all).
 */
export async function writeSql(options: WriteSqlOptions): Promise<GeneratedCandidate> {
  const { context } = options;
  let output: { reasoning: string; sql: string };
  try {
    output = await context.runModelStep({
      step: options.step,
      sample: options.sample,
      temperature: options.temperature,
      schema: sqlCandidateOutputSchema,
      system: options.system,
      prompt: options.prompt,
    });
  } catch (error) {
    if (!ModelOutputError.isInstance(error)) throw error;
    const text = modelOutputText(error);
    const sql = extractSql(text);
    if (sql === "") throw error;
    return { sql, reasoning: text.trim() };
  }
  // Unfenced text that holds no recognisable query (`DELETE FROM orders`, a DO block) goes on as written, so
  // validation refuses it with its own error instead of it passing as "unanswerable"; an empty fence is unanswerable.
  const raw = output.sql.trim();
  const sql = extractSql(raw) || (raw.includes("```") ? "" : raw.replace(/;+\s*$/, ""));
  if (sql === "") {
    const reasoning =
      output.reasoning.trim() || output.sql.trim() || "the model found no way to answer it from this database";
    throw new UnanswerableQuestionError(`cannot answer from this database: ${reasoning}`, {
      question: context.question,
    });
  }
  return { sql, reasoning: output.reasoning };
}

/** The model's whole text behind a `ModelOutputError` (its `output` is capped for logs; the AI SDK's error is not). */
function modelOutputText(error: ModelOutputError): string {
  const cause = error.cause as { text?: unknown } | undefined;
  return typeof cause?.text === "string" ? cause.text : error.output;
}
