import type pg from "pg";

/**
 * Whether `current_user` is a superuser or a member (directly or through other roles) of `administratorRole`; a role
 * that does not exist, or `none`, has no members. Parameter: $1 the administrator role's name. The one definition of
 * an nlq administrator (verified examples and the audit trail, docs/decisions/2026-11-27-scoped-verified-examples.md).
 */
export const administratorSql = `
SELECT coalesce((SELECT r.rolsuper FROM pg_catalog.pg_roles r WHERE r.rolname OPERATOR(pg_catalog.=) current_user), false)
    OR coalesce((SELECT pg_catalog.pg_has_role(current_user, a.oid, 'MEMBER')
                 FROM pg_catalog.pg_roles a WHERE a.rolname OPERATOR(pg_catalog.=) $1), false) AS administrator`;

/** Who a connection is, as PostgreSQL says: its login role and whether it is an nlq administrator. */
export interface RoleAuthority {
  /**
   * `address:port/database` as the server reports it (`inet_server_addr()`, `inet_server_port()`,
   * `current_database()`): the database's name when reached through the proxy or under another host name. Undefined
   * over a Unix socket.
   */
  readonly serverDataSource?: string;
  /** `session_user`: the role the connection authenticated as. */
  readonly role: string;
  /** A superuser or a member of the administrator role (`NLQ_WEB_EXAMPLE_ADMIN_ROLE`). */
  readonly administrator: boolean;
}

/**
 * Asks PostgreSQL, on `connection` (authenticated as the role in question, with no `SET ROLE` in effect), who it is
 * and whether it is an administrator: a superuser or a member of `administratorRole`.
 */
export async function roleAuthority(
  connection: Pick<pg.ClientBase, "query">,
  administratorRole: string,
): Promise<RoleAuthority> {
  const result = await connection.query<{ role: string; administrator: boolean; server: string | null }>(
    `SELECT session_user::text AS role, (${administratorSql}) AS administrator,
            pg_catalog.host(pg_catalog.inet_server_addr()) || ':' || pg_catalog.inet_server_port() || '/' ||
            pg_catalog.current_database() AS server`,
    [administratorRole],
  );
  const row = result.rows[0];
  return {
    role: row?.role ?? "",
    administrator: row?.administrator === true,
    ...(row?.server ? { serverDataSource: row.server } : {}),
  };
}
