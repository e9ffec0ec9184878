import { NlqError } from "@nlq/engine";

/** The peer sent bytes that are not a valid PostgreSQL protocol message. SQLSTATE 08P01 (protocol_violation). */
export class ProtocolViolationError extends NlqError {
  constructor(message: string) {
    super(message, { code: "08P01" });
  }
}
