import { NlqError } from "@nlq/core";

/** A question arrived through the extended query protocol (Parse). SQLSTATE 0A000 (feature_not_supported). */
export class ExtendedProtocolQuestionError extends NlqError {
  constructor() {
    super(
      "natural-language questions need the simple query protocol; send the question as a plain query, not a prepared statement",
      { code: "0A000" },
    );
  }
}
