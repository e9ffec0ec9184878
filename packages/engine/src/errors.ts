import { textPrefix } from "./text/quoted-prefix";

/**
 * Typed errors of @nlq/engine. Every error the core throws is an `NlqError` with a narrow subclass,
 * a stable `code` (a PostgreSQL SQLSTATE, so the proxy can forward it unchanged) and context.
 */
export class NlqError extends Error {
  /** SQLSTATE sent to wire clients. */
  readonly code: string;
  constructor(message: string, options: { code?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = options.code ?? "XX000";
  }
}

/** No language model is configured, or a model reference cannot be resolved. SQLSTATE 55000 (object not in prerequisite state). */
export class ModelConfigurationError extends NlqError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { code: "55000", ...options });
  }
}

/** A language-model call failed (network, provider error, budget, scripted response missing). SQLSTATE 58000 (system error). */
export class ModelCallError extends NlqError {
  readonly step: string;
  constructor(message: string, options: { step: string; cause?: unknown }) {
    super(message, { code: "58000", cause: options.cause });
    this.step = options.step;
  }
}

/** The model's output did not match the step's schema. SQLSTATE 58000. */
export class ModelOutputError extends NlqError {
  readonly step: string;
  readonly output: string;
  constructor(message: string, options: { step: string; output: string; cause?: unknown }) {
    super(message, { code: "58000", cause: options.cause });
    this.step = options.step;
    this.output = truncate(options.output);
  }
}
function truncate(text: string): string {
  return text.length > 2_000 ? `${text.slice(0, 2_000)}…` : text;
}

/** Generated SQL was refused before execution (not exactly one read-only statement, syntax error). SQLSTATE 42601 or 25006. */
export class SqlValidationError extends NlqError {
  readonly sql: string;
  constructor(message: string, options: { sql: string; code?: string; cause?: unknown }) {
    super(message, { code: options.code ?? "42601", cause: options.cause });
    this.sql = options.sql;
  }
}

/**
 * The question cannot be answered from this database (the model said so, or every candidate failed). SQLSTATE 22023.
 * The message is capped at 1,000 characters (the model's reasoning may quote the question).
 */
export class UnanswerableQuestionError extends NlqError {
  /** The question's first 80 characters (with `…` when longer): errors are logged and serialized, never the whole text. */
  readonly question: string;
  constructor(message: string, options: { question: string; cause?: unknown }) {
    super(textPrefix(message, 1_000), { code: "22023", cause: options.cause });
    this.question = textPrefix(options.question);
  }
}

/**
 * The question is longer than `NLQ_MAX_QUESTION_LENGTH` characters. SQLSTATE 54000 (program_limit_exceeded, as
 * PostgreSQL reports its own size limits). The message names both lengths and quotes none of the question.
 */
export class QuestionTooLongError extends NlqError {
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

/** A statement failed on the database; carries PostgreSQL's own SQLSTATE and message. */
export class DatabaseError extends NlqError {
  readonly sql: string;
  readonly detail: string | undefined;
  readonly hint: string | undefined;
  constructor(
    message: string,
    options: { sql: string; code: string; detail?: string; hint?: string; cause?: unknown },
  ) {
    super(message, { code: options.code, cause: options.cause });
    this.sql = options.sql;
    this.detail = options.detail;
    this.hint = options.hint;
  }
}

/** The question text in a marked statement is malformed (empty, unterminated comment). SQLSTATE 42601. */
export class QuestionSyntaxError extends NlqError {
  constructor(message: string) {
    super(message, { code: "42601" });
  }
}

/** Configuration (environment variables, options) is invalid. SQLSTATE F0000 (config file error). */
export class ConfigurationError extends NlqError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { code: "F0000", ...options });
  }
}

/** The work was cancelled (client cancel request, disconnect, deadline). SQLSTATE 57014 (query_canceled). */
export class CancelledError extends NlqError {
  constructor(message = "canceling statement due to user request", options: { cause?: unknown } = {}) {
    super(message, { code: "57014", ...options });
  }
}

/**
 * The session's `client_encoding` is one nlq cannot answer in: generated SQL is validated and sent as UTF-8 and
 * answers are written as UTF-8, so only UTF8 and SQL_ASCII sessions are served. SQLSTATE 0A000 (feature_not_supported).
 */
export class ClientEncodingError extends NlqError {
  readonly encoding: string;
  constructor(encoding: string) {
    super(
      `nlq answers questions only on sessions with client_encoding UTF8 or SQL_ASCII, not ${encoding}; run SET client_encoding = 'UTF8' first`,
      { code: "0A000" },
    );
    this.encoding = encoding;
  }
}

/**
 * A read-only scope left state in the session that its rollback cannot undo (a session advisory lock, a dblink
 * connection, a prepared statement, a temporary object): nlq reset what it could (`reset`) and refuses the scope's
 * result. SQLSTATE 25006 (read_only_sql_transaction): the statement did more than read.
 */
export class SessionResidueError extends DatabaseError {
  /** What the scope left, one line each (`advisory lock 7020`, `dblink connection c`, …). */
  readonly residue: readonly string[];
  /** Whether every item was reset (released, disconnected, deallocated). */
  readonly reset: boolean;
  constructor(residue: readonly string[], reset: boolean, options: { cause?: unknown } = {}) {
    super(
      `the query left session state behind (${residue.join(", ")}); nlq ${reset ? "reset it" : "could not reset all of it"} and refused the result`,
      { sql: "", code: "25006", cause: options.cause },
    );
    this.residue = residue;
    this.reset = reset;
  }
}
