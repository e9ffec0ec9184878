import { escapedStringLiteral, type QueryExecutor, runReadOnly, type TransactionStatus } from "@nlq/engine";
import { administratorSql, type RoleAuthority } from "./role-authority";

export interface SessionAuthorityOptions {
  /** The asker's own session (the proxy's upstream connection, MCP's role session). */
  readonly session: QueryExecutor;
  readonly transactionStatus?: TransactionStatus;
  /** `NLQ_STATEMENT_TIMEOUT_MS`. */
  readonly statementTimeoutMilliseconds: number;
  /** `NLQ_WEB_EXAMPLE_ADMIN_ROLE` (service settings' `webExampleAdministratorRole`). */
  readonly administratorRole: string;
  readonly abortSignal?: AbortSignal;
}

/**
 * `roleAuthority` on a session the pipeline answers on (a `QueryExecutor`, which takes no parameters): the role it
 * authenticated as and whether it is an nlq administrator, asked read-only inside the session's own scope so the
 * session is left as it was.
 */
export async function sessionAuthority(
  options: SessionAuthorityOptions,
): Promise<Pick<RoleAuthority, "role" | "administrator">> {
  const administrator = administratorSql.replace("$1", escapedStringLiteral(options.administratorRole));
  const result = await runReadOnly(
    {
      session: options.session,
      transactionStatus: options.transactionStatus ?? "idle",
      statementTimeoutMilliseconds: options.statementTimeoutMilliseconds,
      abortSignal: options.abortSignal,
    },
    (query) => query(`SELECT session_user::text AS role, (${administrator}) AS administrator`),
  );
  const [row] = result.rows;
  return { role: row?.[0] ?? "", administrator: row?.[1] === "t" || row?.[1] === "true" };
}
