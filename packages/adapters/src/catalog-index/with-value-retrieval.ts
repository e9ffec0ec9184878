import type { Answer, AnswerQuestionOptions } from "@nlq/engine";
import { prepareUnindexedQuestion } from "./prepare-indexed-question";

/**
 * Wraps `answerQuestion` for a server without a metadata store (`nlq proxy --no-metadata`, a web app without one):
 * every question still gets retrieval (keywords → values), from the bounded live lookup on its own session
 * (`prepareUnindexedQuestion`). A caller-supplied `catalog` or `schemaSelector` wins.
 */
export function withValueRetrieval(
  answer: (options: AnswerQuestionOptions) => Promise<Answer>,
): (options: AnswerQuestionOptions) => Promise<Answer> {
  return (options) =>
    options.catalog || options.schemaSelector
      ? answer(options)
      : answer({
          ...prepareUnindexedQuestion({
            session: options.session,
            ...(options.transactionStatus === undefined ? {} : { transactionStatus: options.transactionStatus }),
            settings: options.settings,
          }),
          ...options,
        });
}
