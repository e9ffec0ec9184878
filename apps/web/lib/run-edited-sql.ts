import {
  type QueryExecutor,
  type ReadOnlyQuery,
  runReadOnly,
  type Settings,
  sharedFunctionPolicyCache,
  validateSql,
} from "@nlq/engine";
import type { AnswerField } from "./chat-message";

export interface RunEditedSqlOptions {
  /** The user's own session (a connection authenticated as the signed-in role). */
  readonly session: QueryExecutor;
  /** The SQL as the user edited it. */
  readonly sql: string;
  /** Rows to skip (paging); default 0. */
  readonly offset?: number;
  /** Row cap, byte cap, statement timeout and allowed functions: the same limits as the pipeline's. */
  readonly settings: Pick<
    Settings,
    "rowLimit" | "resultByteLimit" | "statementTimeoutMilliseconds" | "allowedFunctions" | "trustedOwners"
  >;
  readonly abortSignal?: AbortSignal;
}

/** One page of an edited query's result, with the total row count. */
export interface EditedSqlResult {
  /** The SQL as validated (trailing semicolons removed). */
  readonly sql: string;
  readonly fields: readonly AnswerField[];
  readonly rows: ReadonlyArray<ReadonlyArray<string | null>>;
  readonly offset: number;
  /** True when more rows follow this page (or the byte cap cut it). */
  readonly truncated: boolean;
  readonly truncatedBy?: "rows" | "bytes";
  /** Rows of the whole result (`count(*)` over it). */
  readonly totalRows: number;
}

/**
 * Re-runs SQL the user edited exactly as the pipeline runs a candidate: validated by the engine's `validateSql` with
 * the function policy loaded from the role's `pg_proc`, inside `runReadOnly` (read-only transaction, statement
 * timeout) on the user's own session, capped at `rowLimit` rows and `resultByteLimit` bytes from `offset`; the total
 * count runs in the same read-only scope. Throws `SqlValidationError` or `DatabaseError` with the SQLSTATE.
 */
export async function runEditedSql(options: RunEditedSqlOptions): Promise<EditedSqlResult> {
  const offset = Math.max(0, Math.floor(options.offset ?? 0));
  const limit = Math.max(1, options.settings.rowLimit);
  return runReadOnly(
    {
      session: options.session,
      transactionStatus: "idle",
      statementTimeoutMilliseconds: options.settings.statementTimeoutMilliseconds,
      abortSignal: options.abortSignal,
    },
    async (query) => {
      const sql = await validatedSql(query, options.sql, options.settings);
      const page = await query(`SELECT * FROM (\n${sql}\n) AS nlq_result OFFSET ${offset} LIMIT ${limit + 1}`, {
        resultByteLimit: options.settings.resultByteLimit,
      });
      const counted = await query(`SELECT count(*) FROM (\n${sql}\n) AS nlq_result`);
      const rows = page.rows.slice(0, limit);
      const truncatedBy = page.cutByBytes ? "bytes" : page.rows.length > limit ? "rows" : undefined;
      return {
        sql,
        fields: page.fields.map((field) => ({ name: field.name, dataTypeId: field.dataTypeId })),
        rows,
        offset,
        truncated: truncatedBy !== undefined,
        ...(truncatedBy ? { truncatedBy } : {}),
        totalRows: Number(counted.rows[0]?.[0] ?? rows.length),
      };
    },
  );
}

/**
 * The SQL after the engine's validation (one read-only statement, functions allowed by the role's `pg_proc`, code
 * planted by untrusted owners refused), under the same `NLQ_ALLOWED_FUNCTIONS` and `NLQ_TRUSTED_OWNERS` as a question.
 */
export async function validatedSql(
  query: ReadOnlyQuery,
  sql: string,
  settings: Pick<Settings, "allowedFunctions" | "trustedOwners">,
): Promise<string> {
  const policy = await sharedFunctionPolicyCache.load(query, settings.allowedFunctions, settings.trustedOwners);
  return (await validateSql(sql, policy)).sql;
}
