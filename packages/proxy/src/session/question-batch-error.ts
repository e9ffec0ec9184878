import { encodeErrorResponse } from "../protocol/backend-messages";
import type { ProxyLogger } from "../server/proxy-logger";
import { UnsupportedQuestionBatchError } from "./question-errors";
import { toWireError } from "./wire-error";

/**
 * The error for a question whose extended-protocol batch began with messages already forwarded
 * upstream: the upstream answers those, and the error reaches the client just before the upstream's
 * ReadyForQuery, unless the upstream reported an error of its own in the meantime.
 */
export class QuestionBatchError {
  #pending = false;
  #upstreamErrorSeen = false;

  /** True while the error waits for the upstream's ReadyForQuery (upstream ErrorResponses matter then). */
  get pending(): boolean {
    return this.#pending;
  }

  /** Reports the error before the next upstream ReadyForQuery. */
  schedule(): void {
    this.#pending = true;
    this.#upstreamErrorSeen = false;
  }

  /** The upstream sent an ErrorResponse. */
  noteUpstreamError(): void {
    if (this.#pending) this.#upstreamErrorSeen = true;
  }

  /** At an upstream ReadyForQuery: the ErrorResponse to send before it, if one is due. */
  takeBeforeReady(logger: ProxyLogger): Buffer | undefined {
    if (!this.#pending) return undefined;
    this.#pending = false;
    if (this.#upstreamErrorSeen) return undefined;
    const error = new UnsupportedQuestionBatchError(
      "a natural-language question must be alone in its extended-protocol batch (send Sync before it)",
    );
    return encodeErrorResponse(toWireError(error, logger));
  }
}
