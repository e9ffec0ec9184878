import { textPrefix } from "../text/quoted-prefix";
import { NlqError } from "./nlq-error";

/** Errors of the question itself: unanswerable, too long, malformed. */

const unanswerableQuestionErrorMarker = Symbol.for("nlq.error.UnanswerableQuestionError");

/**
 * The question cannot be answered from this database (the model said so, or every candidate failed). SQLSTATE 22023.
 * The message is capped at 1,000 characters (the model's reasoning may quote the question).
 */
export class UnanswerableQuestionError extends NlqError {
  readonly [unanswerableQuestionErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is UnanswerableQuestionError {
    return NlqError.hasMarker(error, unanswerableQuestionErrorMarker);
  }

  /** The question's first 80 characters (with `…` when longer): errors are logged and serialized, never the whole text. */
  readonly question: string;
  constructor(message: string, options: { question: string; cause?: unknown }) {
    super(textPrefix(message, 1_000), { code: "22023", cause: options.cause });
    this.question = textPrefix(options.question);
  }
}

const questionTooLongErrorMarker = Symbol.for("nlq.error.QuestionTooLongError");

/**
 * The question is longer than `NLQ_MAX_QUESTION_LENGTH` characters. SQLSTATE 54000 (program_limit_exceeded, as
 * PostgreSQL reports its own size limits). The message names both lengths and quotes none of the question.
 */
export class QuestionTooLongError extends NlqError {
  readonly [questionTooLongErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is QuestionTooLongError {
    return NlqError.hasMarker(error, questionTooLongErrorMarker);
  }

  /** The question's length in characters. */
  readonly length: number;
  /** The limit it exceeded. */
  readonly limit: number;
  constructor(length: number, limit: number) {
    super(`the question is ${length} characters long; nlq accepts at most ${limit} (NLQ_MAX_QUESTION_LENGTH)`, {
      code: "54000",
    });
    this.length = length;
    this.limit = limit;
  }
}

const questionSyntaxErrorMarker = Symbol.for("nlq.error.QuestionSyntaxError");

/** The question text in a marked statement is malformed (empty, unterminated comment). SQLSTATE 42601. */
export class QuestionSyntaxError extends NlqError {
  readonly [questionSyntaxErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is QuestionSyntaxError {
    return NlqError.hasMarker(error, questionSyntaxErrorMarker);
  }

  constructor(message: string) {
    super(message, { code: "42601" });
  }
}
