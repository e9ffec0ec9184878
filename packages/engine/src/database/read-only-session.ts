import { CancelledError } from "../errors/cancelled-error";
import { ClientEncodingError, DatabaseError, SessionResidueError } from "../errors/database-errors";
import type { QueryExecutor, QueryResult, TransactionStatus } from "./query-executor";
import {
  dblinkConnectionsSql,
  describeResidue,
  firstRow,
  newResidue,
  parseResidue,
  resetResidue,
  residueColumnsSql,
  residueSql,
  type SessionResidue,
} from "./session-residue";

export interface ReadOnlyScopeOptions {
  /** The asking user's session. */
  readonly session: QueryExecutor;
  /** The session's transaction state now (as ReadyForQuery reported it). Default `idle`. */
  readonly transactionStatus?: TransactionStatus;
  /** `SET LOCAL statement_timeout` for the statements of the scope, in milliseconds. */
  readonly statementTimeoutMilliseconds: number;
  /** Cancels the running statement; the scope still restores the session. */
  readonly abortSignal?: AbortSignal;
  /**
   * Called with what the scope left in the session that its rollback could not undo (`SessionResidue`, one line per
   * item), after nlq reset it and before `SessionResidueError` is thrown: the place to log it.
   */
  readonly onSessionResidue?: (residue: readonly string[]) => void;
}

/** Runs one statement inside the read-only scope, optionally with a result byte limit (`QueryOptions`). */
export type ReadOnlyQuery = (sql: string, options?: { readonly resultByteLimit?: number }) => Promise<QueryResult>;

const scopeSavepoint = "nlq_read_only";

/** Client encodings in which every byte below 0x80 is the ASCII character, as the validator's lexer assumes. */
const servedEncodings = new Set(["UTF8", "SQL_ASCII"]);

/**
 * One statement that makes the lexical settings the SQL validator assumes explicit for the scope and reads the
 * session's encoding: `standard_conforming_strings` on (so `'\'` is a one-character string, as libpg-query lexes it,
 * never an escaped quote) and the statement timeout, both transaction-local; `client_encoding` is read, not set.
 */
function scopeSettingsSql(timeoutMilliseconds: number): string {
  return [
    "SELECT pg_catalog.set_config('standard_conforming_strings', 'on', true)",
    `pg_catalog.set_config('statement_timeout', '${timeoutMilliseconds}', true)`,
    "pg_catalog.current_setting('client_encoding')",
    ...residueColumnsSql,
  ].join(", ");
}

/**
 * Runs `work` inside a transaction PostgreSQL itself keeps read-only, then undoes everything so the session is
 * exactly as before:
 * - idle: `BEGIN READ ONLY` … `ROLLBACK`;
 * - in a transaction: `SAVEPOINT` + `SET LOCAL transaction_read_only = on` … `ROLLBACK TO SAVEPOINT` + `RELEASE`;
 * - failed transaction: refused with PostgreSQL's own 25P02 error.
 * `statement_timeout` and `standard_conforming_strings = on` are set transaction-locally, so they apply inside the
 * scope only; the session may have `standard_conforming_strings = off` (e.g. `ALTER ROLE … SET`), under which
 * `'\'` would open a string the validator saw closed.
 *
 * `client_encoding` is checked, not changed: a session whose encoding is not UTF8 or SQL_ASCII is refused with
 * `ClientEncodingError` (0A000). Setting it locally would let the statement lex as validated, but the answer rows are
 * written back to the client as UTF-8 after the scope, into a session the client believes speaks another encoding;
 * client-only encodings (SJIS, BIG5, GBK…) can also swallow a backslash or quote as the second byte of a character.
 * A clear refusal is safer than a half-working answer.
 *
 * What a rollback cannot undo is checked after every scope (docs/decisions/2026-11-27-resolved-call-policy.md): the
 * session's advisory locks, prepared statements, temporary relations and dblink connections are read in the scope's
 * first statement and once more after it; anything new is reset (locks released, connections closed, statements
 * deallocated, temporary relations dropped), reported to `onSessionResidue` and refused with `SessionResidueError`
 * (25006), whatever `work` returned.
 *
 * An error inside `work` rolls the scope back and is
 * rethrown, so one failing candidate never poisons the user's transaction. Use one scope per unit of work (the catalog,
 * each candidate) so no transaction stays open while a language model thinks.
 */
export async function runReadOnly<T>(
  options: ReadOnlyScopeOptions,
  work: (query: ReadOnlyQuery) => Promise<T>,
): Promise<T> {
  const status = options.transactionStatus ?? "idle";
  if (status === "failed") {
    throw new DatabaseError("current transaction is aborted, commands ignored until end of transaction block", {
      sql: "",
      code: "25P02",
    });
  }
  if (options.abortSignal?.aborted) throw new CancelledError();
  const control = (sql: string) => options.session.query({ sql });
  const timeout = Math.max(1, Math.floor(options.statementTimeoutMilliseconds));
  const enter =
    status === "idle" ? ["BEGIN READ ONLY"] : [`SAVEPOINT ${scopeSavepoint}`, "SET LOCAL transaction_read_only = on"];
  let before: SessionResidue | undefined;
  let dblinkSchema: string | null = null;
  await control(enter[0]!);
  try {
    for (const sql of enter.slice(1)) await control(sql);
    const settings = firstRow(await control(scopeSettingsSql(timeout)));
    dblinkSchema = settings[6] ?? null;
    const connections = dblinkSchema === null ? null : firstRow(await control(dblinkConnectionsSql(dblinkSchema)))[0];
    before = parseResidue([...settings.slice(3, 6), connections ?? null]);
    const encoding = settings[2] ?? "";
    if (!servedEncodings.has(encoding.toUpperCase())) throw new ClientEncodingError(encoding);
    return await work((sql, queryOptions) =>
      options.session.query({ sql, abortSignal: options.abortSignal, ...queryOptions }),
    );
  } finally {
    const after = await leaveScope(control, status === "idle", before === undefined ? undefined : dblinkSchema);
    if (before !== undefined && after !== undefined) await refuseResidue(options, before, after, dblinkSchema);
  }
}

/**
 * Leaves the scope and, unless `dblinkSchema` is undefined, reads the residue afterwards. Idle: `ROLLBACK`, then the
 * read in its own implicit transaction. In the user's transaction: `ROLLBACK TO SAVEPOINT`, the read inside the
 * savepoint, `ROLLBACK TO SAVEPOINT` once more (the read's catalog locks must not stay in the user's transaction),
 * `RELEASE SAVEPOINT`.
 */
async function leaveScope(
  control: (sql: string) => Promise<QueryResult>,
  idle: boolean,
  dblinkSchema: string | null | undefined,
): Promise<SessionResidue | undefined> {
  const read = async () =>
    dblinkSchema === undefined ? undefined : parseResidue(firstRow(await control(residueSql(dblinkSchema))));
  if (idle) {
    await control("ROLLBACK");
    return read();
  }
  await control(`ROLLBACK TO SAVEPOINT ${scopeSavepoint}`);
  try {
    return await read();
  } finally {
    await control(`ROLLBACK TO SAVEPOINT ${scopeSavepoint}`);
    await control(`RELEASE SAVEPOINT ${scopeSavepoint}`);
  }
}

/** Compares the residue after the scope with before; anything new is reset, reported and refused. */
async function refuseResidue(
  options: ReadOnlyScopeOptions,
  before: SessionResidue,
  after: SessionResidue,
  dblinkSchema: string | null,
): Promise<void> {
  const left = newResidue(before, after);
  const lines = describeResidue(left);
  if (lines.length === 0) return;
  const control = (sql: string) => options.session.query({ sql });
  const reset = await resetResidue(control, left, dblinkSchema, (options.transactionStatus ?? "idle") === "idle");
  options.onSessionResidue?.(lines);
  throw new SessionResidueError(lines, reset);
}

/** Which cap cut a result: the row cap (`NLQ_ROW_LIMIT`) or the byte cap (`NLQ_RESULT_BYTE_LIMIT`). */
export type TruncationReason = "rows" | "bytes";

export interface CappedResult {
  readonly result: QueryResult;
  /** True when a cap cut the result. */
  readonly truncated: boolean;
  /** Which cap cut it (the byte cap when both would have); undefined when nothing was cut. */
  readonly truncatedBy?: TruncationReason;
}

/**
 * Runs a validated SELECT with a row cap: `SELECT * FROM (<sql>) AS nlq_result LIMIT <rowLimit + 1>`, then cuts to
 * `rowLimit` and reports whether rows were cut. PostgreSQL stops producing rows at the limit. With `byteLimit`, the
 * executor also stops keeping rows once their bytes pass it and cancels the statement (`truncatedBy: "bytes"`).
 */
export async function queryWithRowLimit(
  query: ReadOnlyQuery,
  sql: string,
  rowLimit: number,
  byteLimit?: number,
): Promise<CappedResult> {
  const limit = Math.max(1, Math.floor(rowLimit));
  let result: QueryResult;
  try {
    result = await query(
      `SELECT * FROM (\n${sql}\n) AS nlq_result LIMIT ${limit + 1}`,
      byteLimit === undefined ? undefined : { resultByteLimit: byteLimit },
    );
  } catch (error) {
    // Report the statement as generated, not as wrapped.
    if (DatabaseError.isInstance(error)) {
      throw new DatabaseError(error.message, {
        sql,
        code: error.code,
        detail: error.detail,
        hint: error.hint,
        cause: error.cause ?? error,
      });
    }
    throw error;
  }
  if (result.cutByBytes) {
    const rows = result.rows.slice(0, limit);
    return { result: { ...result, rows, command: `SELECT ${rows.length}` }, truncated: true, truncatedBy: "bytes" };
  }
  if (result.rows.length <= limit) return { result, truncated: false };
  return {
    result: { ...result, rows: result.rows.slice(0, limit), command: `SELECT ${limit}` },
    truncated: true,
    truncatedBy: "rows",
  };
}
