import { dataSourceKey } from "@nlq/adapters";
import type pg from "pg";
import { unsealSessionId } from "./session-cookie";
import { webPool, webRoleSessions } from "./web-resources";
import { loadWebSettings, type WebSettings } from "./web-settings";

/** Who is asking: the PostgreSQL role every question, retrieval and SQL of this request runs as. */
export interface WebUser {
  /** The role name (`current_user` of the user's connections). */
  readonly role: string;
  /** The data source, without any role or secret: `host:port/database` of `DATABASE_URL`. */
  readonly dataSource: string;
  /** Connections authenticated as `role`. */
  readonly pool: pg.Pool;
  /** True in single-user mode (`NLQ_WEB_SINGLE_USER=on`): no sign-in, `DATABASE_URL`'s role. */
  readonly singleUser: boolean;
  /** The signed-in session's id (absent in single-user mode). */
  readonly sessionId?: string;
}

/** `host:port/database` of a database URL (no user, no password): `dataSourceKey` of @nlq/adapters. */
export { dataSourceKey };

/**
 * The user of a request: in single-user mode the server's configured role; otherwise the live session whose id the
 * sealed `nlq_session` cookie carries, or undefined (the page then asks to sign in, the API answers 401).
 * Throws `ConfigurationError` on a bad configuration.
 */
export async function currentWebUser(
  sealedCookie: string | undefined,
  service: WebSettings = loadWebSettings(process.env),
): Promise<WebUser | undefined> {
  if (service.webSingleUser) {
    const pool = webPool(service);
    const url = new URL(service.databaseUrl!);
    return {
      role: decodeURIComponent(url.username) || process.env.USER || "postgres",
      dataSource: dataSourceKey(service.databaseUrl!),
      pool,
      singleUser: true,
    };
  }
  if (sealedCookie === undefined || sealedCookie === "") return undefined;
  const sessionId = await unsealSessionId(sealedCookie);
  if (sessionId === undefined) return undefined;
  const session = webRoleSessions(service).get(sessionId);
  if (!session) return undefined;
  return {
    role: session.role,
    dataSource: dataSourceKey(service.databaseUrl!, session.database),
    pool: session.pool,
    singleUser: false,
    sessionId,
  };
}
