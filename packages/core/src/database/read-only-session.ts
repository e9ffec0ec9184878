import { CancelledError, DatabaseError } from "../errors";
import type { QueryExecutor, QueryResult, TransactionStatus } from "./query-executor";

export interface ReadOnlyScopeOptions {
  /** The asking user's session. */
  readonly session: QueryExecutor;
  /** The session's transaction state now (as ReadyForQuery reported it). Default `idle`. */
  readonly transactionStatus?: TransactionStatus;
  /** `SET LOCAL statement_timeout` for the statements of the scope, in milliseconds. */
  readonly statementTimeoutMilliseconds: number;
  /** Cancels the running statement; the scope still restores the session. */
  readonly abortSignal?: AbortSignal;
}

/** Runs statements inside the read-only scope. */
export type ReadOnlyQuery = (sql: string) => Promise<QueryResult>;

const scopeSavepoint = "nlq_read_only";

/**
 * Runs `work` inside a transaction PostgreSQL itself keeps read-only, then undoes everything so the session is
 * exactly as before:
 * - idle: `BEGIN READ ONLY` … `ROLLBACK`;
 * - in a transaction: `SAVEPOINT` + `SET LOCAL transaction_read_only = on` … `ROLLBACK TO SAVEPOINT` + `RELEASE`;
 * - failed transaction: refused with PostgreSQL's own 25P02 error.
 * `SET LOCAL statement_timeout` applies inside the scope only. An error inside `work` rolls the scope back and is
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
    status === "idle"
      ? ["BEGIN READ ONLY", `SET LOCAL statement_timeout = ${timeout}`]
      : [
          `SAVEPOINT ${scopeSavepoint}`,
          "SET LOCAL transaction_read_only = on",
          `SET LOCAL statement_timeout = ${timeout}`,
        ];
  const leave =
    status === "idle"
      ? ["ROLLBACK"]
      : [`ROLLBACK TO SAVEPOINT ${scopeSavepoint}`, `RELEASE SAVEPOINT ${scopeSavepoint}`];
  await control(enter[0]!);
  try {
    for (const sql of enter.slice(1)) await control(sql);
    return await work((sql) => options.session.query({ sql, abortSignal: options.abortSignal }));
  } finally {
    for (const sql of leave) await control(sql);
  }
}

export interface CappedResult {
  readonly result: QueryResult;
  /** True when the query had more rows than the cap. */
  readonly truncated: boolean;
}

/**
 * Runs a validated SELECT with a row cap: `SELECT * FROM (<sql>) AS nlq_result LIMIT <rowLimit + 1>`, then cuts to
 * `rowLimit` and reports whether rows were cut. PostgreSQL stops producing rows at the limit.
 */
export async function queryWithRowLimit(query: ReadOnlyQuery, sql: string, rowLimit: number): Promise<CappedResult> {
  const limit = Math.max(1, Math.floor(rowLimit));
  let result: QueryResult;
  try {
    result = await query(`SELECT * FROM (\n${sql}\n) AS nlq_result LIMIT ${limit + 1}`);
  } catch (error) {
    // Report the statement as generated, not as wrapped.
    if (error instanceof DatabaseError) {
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
  if (result.rows.length <= limit) return { result, truncated: false };
  return {
    result: { ...result, rows: result.rows.slice(0, limit), command: `SELECT ${limit}` },
    truncated: true,
  };
}
