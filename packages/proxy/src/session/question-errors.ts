import { NlqError } from "@nlq/engine";

/**
 * A question asked through the extended query protocol in a form the proxy cannot answer itself
 * (parameters, binary results, other statements in the same batch). SQLSTATE 0A000 (feature_not_supported).
 */
export class UnsupportedQuestionBatchError extends NlqError {
  constructor(message: string) {
    super(message, { code: "0A000" });
  }
}

/** A question's extended-protocol batch grew past the proxy's limit before its Sync. SQLSTATE 54000 (program_limit_exceeded). */
export class QuestionBatchTooLargeError extends NlqError {
  constructor(message: string) {
    super(message, { code: "54000" });
  }
}

/** Most bytes of a Query or Parse held to look for a question: a longer one is decided on its first MiB. */
export const LARGE_CLIENT_MESSAGE_BYTES = 1024 * 1024;

/**
 * A Query longer than `LARGE_CLIENT_MESSAGE_BYTES` whose first MiB asks a question: refused as it streams, never held
 * whole. SQLSTATE 54000 (program_limit_exceeded), as for a question over NLQ_MAX_QUESTION_LENGTH.
 */
export class QuestionQueryTooLargeError extends NlqError {
  constructor(bytes: number) {
    super(
      `a query holding a natural-language question may be at most ${LARGE_CLIENT_MESSAGE_BYTES} bytes; this one is ${bytes} bytes (the question itself at most NLQ_MAX_QUESTION_LENGTH characters)`,
      { code: "54000" },
    );
  }
}

/**
 * A prepared question's stored SQL, re-run at Execute, no longer returns the columns it returned at Parse (the
 * schema changed in between). SQLSTATE 0A000 with PostgreSQL's own message for a prepared statement in that case.
 */
export class PreparedQuestionChangedError extends NlqError {
  constructor() {
    super("cached plan must not change result type", { code: "0A000" });
  }
}
