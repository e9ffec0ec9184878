import { ModelCallError, ModelOutputError } from "../../errors/model-errors";
import type { StepContext } from "../../llm/step-context";
import { extractKeywords } from "./extract-keywords";
import { heuristicKeywords, namedValues } from "./heuristic-keywords";

/**
 * The question's keywords (CHESS IR, first step): `extract-keywords` by the model when `useModel` (plus the question's
 * quoted and capitalised spans, `namedValues`); `heuristicKeywords`
 * when it is off, and also when the model call fails (e.g. a scripted fixture without an `extract-keywords` response):
 * keywords only steer retrieval, so a failed keyword call must not fail the question. The `keywords-end` event says
 * which (`source`, `fallbackReason`).
 */
export async function questionKeywords(context: StepContext, useModel: boolean): Promise<string[]> {
  let fallbackReason: string | undefined;
  if (useModel) {
    try {
      // The question's own named values too: a model that drops or mangles them must not hide a stored spelling.
      return await extractKeywords({ context, alsoKeep: namedValues(context.question) });
    } catch (error) {
      if (!(ModelCallError.isInstance(error) || ModelOutputError.isInstance(error))) throw error;
      fallbackReason = error.message;
    }
  }
  const keywords = heuristicKeywords([context.question, context.hint ?? ""].join(" "));
  context.emit({ type: "keywords-end", keywords, source: "heuristic", ...(fallbackReason ? { fallbackReason } : {}) });
  return keywords;
}
