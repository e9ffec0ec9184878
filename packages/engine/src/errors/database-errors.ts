import { NlqError } from "./nlq-error";

/** Errors of the SQL and the session it runs on: refused before running, failed, unsupported encoding, residue. */

const sqlValidationErrorMarker = Symbol.for("nlq.error.SqlValidationError");

/** Generated SQL was refused before execution (not exactly one read-only statement, syntax error). SQLSTATE 42601 or 25006. */
export class SqlValidationError extends NlqError {
  readonly [sqlValidationErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is SqlValidationError {
    return NlqError.hasMarker(error, sqlValidationErrorMarker);
  }

  readonly sql: string;
  constructor(message: string, options: { sql: string; code?: string; cause?: unknown }) {
    super(message, { code: options.code ?? "42601", cause: options.cause });
    this.sql = options.sql;
  }
}

const databaseErrorMarker = Symbol.for("nlq.error.DatabaseError");

/** A statement failed on the database; carries PostgreSQL's own SQLSTATE and message. */
export class DatabaseError extends NlqError {
  readonly [databaseErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is DatabaseError {
    return NlqError.hasMarker(error, databaseErrorMarker);
  }

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

const clientEncodingErrorMarker = Symbol.for("nlq.error.ClientEncodingError");

/**
 * The session's `client_encoding` is one nlq cannot answer in: generated SQL is validated and sent as UTF-8 and
 * answers are written as UTF-8, so only UTF8 and SQL_ASCII sessions are served. SQLSTATE 0A000 (feature_not_supported).
 */
export class ClientEncodingError extends NlqError {
  readonly [clientEncodingErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is ClientEncodingError {
    return NlqError.hasMarker(error, clientEncodingErrorMarker);
  }

  readonly encoding: string;
  constructor(encoding: string) {
    super(
      `nlq answers questions only on sessions with client_encoding UTF8 or SQL_ASCII, not ${encoding}; run SET client_encoding = 'UTF8' first`,
      { code: "0A000" },
    );
    this.encoding = encoding;
  }
}

const sessionResidueErrorMarker = Symbol.for("nlq.error.SessionResidueError");

/**
 * A read-only scope left state in the session that its rollback cannot undo (a session advisory lock, a dblink
 * connection, a prepared statement, a temporary object): nlq reset what it could (`reset`) and refuses the scope's
 * result. SQLSTATE 25006 (read_only_sql_transaction): the statement did more than read.
 */
export class SessionResidueError extends DatabaseError {
  readonly [sessionResidueErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is SessionResidueError {
    return NlqError.hasMarker(error, sessionResidueErrorMarker);
  }

  /** What the scope left, one line each (`advisory lock 7020`, `dblink connection c`, …). */
  readonly residue: readonly string[];
  /** Whether every item was reset (released, disconnected, deallocated, dropped). */
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
