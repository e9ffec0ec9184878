import { NlqError } from "@nlq/engine";

const protocolViolationErrorMarker = Symbol.for("nlq.error.ProtocolViolationError");

/** The peer sent bytes that are not a valid PostgreSQL protocol message. SQLSTATE 08P01 (protocol_violation). */
export class ProtocolViolationError extends NlqError {
  readonly [protocolViolationErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is ProtocolViolationError {
    return NlqError.hasMarker(error, protocolViolationErrorMarker);
  }

  constructor(message: string) {
    super(message, { code: "08P01" });
  }
}
