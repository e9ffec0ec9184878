import { runReadOnly } from "@nlq/engine";
import type { RoleSession } from "../role-session";
import { type SqlLimits, validatedSql } from "./run-sql";

export type ExplainFormat = "text" | "json";

/** What `explain` returns: the SQL as validated and PostgreSQL's plan for it. */
export interface SqlPlan {
  readonly sql: string;
  readonly format: ExplainFormat;
  /** `EXPLAIN (FORMAT TEXT)`: the plan's lines; `FORMAT JSON`: the parsed JSON document. */
  readonly plan: unknown;
}

/**
 * The plan of SQL a client wrote, without running it: validated as `run_sql` validates it (one read-only statement,
 * the function policy), then `EXPLAIN (FORMAT TEXT|JSON)` — never `ANALYZE` — inside a read-only transaction on the
 * role's session, so the role's grants apply to planning too (a table it cannot read is refused with 42501).
 */
export async function explainSql(
  role: RoleSession,
  sql: string,
  format: ExplainFormat,
  limits: SqlLimits,
  abortSignal?: AbortSignal,
): Promise<SqlPlan> {
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
        const result = await query(`EXPLAIN (FORMAT ${format === "json" ? "JSON" : "TEXT"})\n${validated}`);
        const lines = result.rows.map((row) => row[0] ?? "");
        return {
          sql: validated,
          format,
          plan: format === "json" ? JSON.parse(lines.join("\n")) : lines,
        };
      },
    ),
  );
}
