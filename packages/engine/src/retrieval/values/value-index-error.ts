import { NlqError } from "../../errors/nlq-error";

const valueIndexErrorMarker = Symbol.for("nlq.error.ValueIndexError");

/** The value index was misused or its stored data is inconsistent. SQLSTATE XX000 (internal error). */
export class ValueIndexError extends NlqError {
  readonly [valueIndexErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is ValueIndexError {
    return NlqError.hasMarker(error, valueIndexErrorMarker);
  }

  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { code: "XX000", ...options });
  }
}
