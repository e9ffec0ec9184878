import { summarizeAnswerOutputSchema, summarizeAnswerPrompt, summarizeAnswerSystemPrompt } from "@nlq/prompts";
import type { AnswerSummary } from "../contract/answer";
import type { CappedResult } from "../database/read-only-session";
import { CancelledError } from "../errors/cancelled-error";
import type { StepContext } from "../llm/step-context";
import { resultPreview } from "../selection/result-preview";
import { textPrefix } from "../text/quoted-prefix";
import { plainSentence } from "./plain-sentence";
import { unsupportedFigures } from "./sentence-figures";

/** Rows of the chosen result the `summarize-answer` prompt shows (long cells are cut by `resultPreview`). */
export const summaryPreviewRows = 20;

export interface SummarizeAnswerOptions {
  /** The chosen SQL, as executed. */
  readonly sql: string;
  /** Its result on the asking user's session: the only rows the prompt shows (the first `summaryPreviewRows`). */
  readonly result: CappedResult;
  readonly context: StepContext;
}

/** Why the call failed, on one line and at most 200 characters (an error may quote a whole model output). */
function shortReason(error: unknown): string {
  return textPrefix((error instanceof Error ? error.message : String(error)).replace(/\s+/g, " ").trim(), 200);
}

/**
 * The `summarize-answer` step: one plain-language sentence that answers the question from the chosen result, written
 * by the step's model from the question, the SQL and the first rows (or "nothing matched" for no rows). Runs only when
 * `settings.summarizeAnswer` is on (the preset's `summarizeAnswer`), emitting `summary-start` and `summary-end`.
 *
 * The sentence is optional, never a reason to fail an answered question: when the budget is already spent the call is
 * not made, and when the call fails (no response, bad output, the deadline) there is no sentence and `summary-end`
 * says why — no other text stands in for the model's. Only the client's cancel propagates (`CancelledError`). The
 * model's text is cleaned by `plainSentence` (plain, one line, capped), and dropped when it states a figure the rows
 * the asking role got do not support (`unsupportedFigures`: a recorded or cached "1,500 customers" to a role whose
 * row-level security shows 157) — `summary-end` then names the figures.
 */
export async function summarizeAnswer(options: SummarizeAnswerOptions): Promise<AnswerSummary | undefined> {
  const { context, result } = options;
  if (!context.settings.summarizeAnswer) return undefined;
  context.throwIfCancelled();
  context.emit({ type: "summary-start", rows: result.result.rows.length });
  const spent = context.budget.spentReason();
  if (spent) {
    context.emit({ type: "summary-end", omittedReason: spent });
    return undefined;
  }
  try {
    const output = await context.runModelStep({
      step: "summarize-answer",
      schema: summarizeAnswerOutputSchema,
      system: summarizeAnswerSystemPrompt,
      prompt: summarizeAnswerPrompt({
        question: context.question,
        sql: options.sql,
        result: resultPreview(result, summaryPreviewRows),
      }),
    });
    const sentence = plainSentence(output.answer);
    if (!sentence) {
      context.emit({ type: "summary-end", omittedReason: "the model's sentence held no text" });
      return undefined;
    }
    const unsupported = unsupportedFigures(sentence, {
      question: context.question,
      rows: result.result.rows,
      truncated: result.truncated,
    });
    if (unsupported.length > 0) {
      const figures = unsupported.map((figure) => figure.text).join(", ");
      context.emit({
        type: "summary-end",
        omittedReason: `the sentence stated ${figures}, which the rows this role got do not hold`,
      });
      return undefined;
    }
    const model = context.modelForStep("summarize-answer");
    context.emit({ type: "summary-end", sentence });
    return { sentence, model: model.id, scripted: model.scripted };
  } catch (error) {
    if (context.abortSignal?.aborted) {
      throw CancelledError.isInstance(error) ? error : new CancelledError(undefined, { cause: error });
    }
    context.emit({ type: "summary-end", omittedReason: shortReason(error) });
    return undefined;
  }
}
