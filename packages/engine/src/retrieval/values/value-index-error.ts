import { NlqError } from "../../errors";

/** The value index was misused or its stored data is inconsistent. SQLSTATE XX000 (internal error). */
export class ValueIndexError extends NlqError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { code: "XX000", ...options });
  }
}
