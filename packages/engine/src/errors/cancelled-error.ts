import { NlqError } from "./nlq-error";

const cancelledErrorMarker = Symbol.for("nlq.error.CancelledError");

/** The work was cancelled (client cancel request, disconnect, deadline). SQLSTATE 57014 (query_canceled). */
export class CancelledError extends NlqError {
  readonly [cancelledErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is CancelledError {
    return NlqError.hasMarker(error, cancelledErrorMarker);
  }

  constructor(message = "canceling statement due to user request", options: { cause?: unknown } = {}) {
    super(message, { code: "57014", ...options });
  }
}
