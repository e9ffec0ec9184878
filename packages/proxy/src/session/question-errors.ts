import { NlqError } from "@nlq/engine";

const unsupportedQuestionBatchErrorMarker = Symbol.for("nlq.error.UnsupportedQuestionBatchError");

/**
 * A question asked through the extended query protocol in a form the proxy cannot answer itself
 * (parameters, binary results, other statements in the same batch). SQLSTATE 0A000 (feature_not_supported).
 */
export class UnsupportedQuestionBatchError extends NlqError {
  readonly [unsupportedQuestionBatchErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is UnsupportedQuestionBatchError {
    return NlqError.hasMarker(error, unsupportedQuestionBatchErrorMarker);
  }

  constructor(message: string) {
    super(message, { code: "0A000" });
  }
}

const questionBatchTooLargeErrorMarker = Symbol.for("nlq.error.QuestionBatchTooLargeError");

/** A question's extended-protocol batch grew past the proxy's limit before its Sync. SQLSTATE 54000 (program_limit_exceeded). */
export class QuestionBatchTooLargeError extends NlqError {
  readonly [questionBatchTooLargeErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is QuestionBatchTooLargeError {
    return NlqError.hasMarker(error, questionBatchTooLargeErrorMarker);
  }

  constructor(message: string) {
    super(message, { code: "54000" });
  }
}

/** Most bytes of a Query or Parse held to look for a question: a longer one is decided on its first MiB. */
export const LARGE_CLIENT_MESSAGE_BYTES = 1024 * 1024;

const questionQueryTooLargeErrorMarker = Symbol.for("nlq.error.QuestionQueryTooLargeError");

/**
 * A Query longer than `LARGE_CLIENT_MESSAGE_BYTES` whose first MiB asks a question: refused as it streams, never held
 * whole. SQLSTATE 54000 (program_limit_exceeded), as for a question over NLQ_MAX_QUESTION_LENGTH.
 */
export class QuestionQueryTooLargeError extends NlqError {
  readonly [questionQueryTooLargeErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is QuestionQueryTooLargeError {
    return NlqError.hasMarker(error, questionQueryTooLargeErrorMarker);
  }

  constructor(bytes: number) {
    super(
      `a query holding a natural-language question may be at most ${LARGE_CLIENT_MESSAGE_BYTES} bytes; this one is ${bytes} bytes (the question itself at most NLQ_MAX_QUESTION_LENGTH characters)`,
      { code: "54000" },
    );
  }
}

const preparedQuestionChangedErrorMarker = Symbol.for("nlq.error.PreparedQuestionChangedError");

/**
 * A prepared question's stored SQL, re-run at Execute, no longer returns the columns it returned at Parse (the
 * schema changed in between). SQLSTATE 0A000 with PostgreSQL's own message for a prepared statement in that case.
 */
export class PreparedQuestionChangedError extends NlqError {
  readonly [preparedQuestionChangedErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is PreparedQuestionChangedError {
    return NlqError.hasMarker(error, preparedQuestionChangedErrorMarker);
  }

  constructor() {
    super("cached plan must not change result type", { code: "0A000" });
  }
}
