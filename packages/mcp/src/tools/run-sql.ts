import {
  queryWithRowLimit,
  type ReadOnlyQuery,
  runReadOnly,
  type Settings,
  sharedFunctionPolicyCache,
  validateSql,
} from "@nlq/engine";
import type { RoleSession } from "../role-session";

/** The limits a tool's SQL runs under: the pipeline's own (`NLQ_ROW_LIMIT`, `NLQ_RESULT_BYTE_LIMIT`, …). */
export type SqlLimits = Pick<
  Settings,
  "rowLimit" | "resultByteLimit" | "statementTimeoutMilliseconds" | "allowedFunctions" | "trustedOwners"
>;

/** What `run_sql` returns: the SQL as validated, the columns and the rows (text, as PostgreSQL formats them). */
export interface SqlRows {
  readonly sql: string;
  readonly columns: readonly string[];
  readonly rows: ReadonlyArray<ReadonlyArray<string | null>>;
  /** True when a cap cut the rows (`truncatedBy` says which). */
  readonly truncated: boolean;
  readonly truncatedBy?: "rows" | "bytes";
}

/**
 * The SQL after the engine's validation, exactly as a generated candidate is checked: one read-only statement
 * (`validateSql`), and no function, operator or cast the function policy (loaded from the role's `pg_proc`, with
 * `NLQ_ALLOWED_FUNCTIONS`) refuses. Throws `SqlValidationError` (42601 or 25006). Runs inside a read-only scope.
 */
export async function validatedSql(query: ReadOnlyQuery, sql: string, limits: SqlLimits): Promise<string> {
  const policy = await sharedFunctionPolicyCache.load(query, limits.allowedFunctions, limits.trustedOwners);
  return (await validateSql(sql, policy)).sql;
}

/**
 * Runs SQL a client wrote as the pipeline runs a candidate: validated (`validatedSql`), then executed in a transaction
 * PostgreSQL keeps read-only (`runReadOnly`: statement timeout, session residue checked) on the role's own session,
 * capped at `maxRows` (at most `rowLimit`) rows and `resultByteLimit` bytes. A write, a forbidden function or a table
 * the role has no grant on is refused (`SqlValidationError`, or PostgreSQL's `DatabaseError` 42501).
 */
export async function runSql(
  role: RoleSession,
  sql: string,
  limits: SqlLimits,
  maxRows: number,
  abortSignal?: AbortSignal,
): Promise<SqlRows> {
  return role.exclusive(() =>
    runReadOnly(
      {
        session: role.session,
        transactionStatus: "idle",
        statementTimeoutMilliseconds: limits.statementTimeoutMilliseconds,
        abortSignal,
      },
      async (query) => {
        const validated = await validatedSql(query, sql, limits);
        const capped = await queryWithRowLimit(
          query,
          validated,
          Math.min(maxRows, limits.rowLimit),
          limits.resultByteLimit,
        );
        return {
          sql: validated,
          columns: capped.result.fields.map((field) => field.name),
          rows: capped.result.rows,
          truncated: capped.truncated,
          ...(capped.truncatedBy ? { truncatedBy: capped.truncatedBy } : {}),
        };
      },
    ),
  );
}
