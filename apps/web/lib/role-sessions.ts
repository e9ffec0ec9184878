import { randomBytes } from "node:crypto";
import pg from "pg";
import { DatabaseConnectionError, SignInRejectedError } from "./web-errors";

/** A signed-in web user: a PostgreSQL role with its own small connection pool, held in server memory only. */
export interface RoleSession {
  /** Random id (256 bits, base64url) the session cookie carries, sealed. */
  readonly id: string;
  /** The role PostgreSQL authenticated (`current_user` of its connections). */
  readonly role: string;
  /** The database the role is connected to (`current_database()`). */
  readonly database: string;
  /** Connections authenticated as `role`; every question, retrieval and re-run of this user uses them. */
  readonly pool: pg.Pool;
}

export interface RoleSessionsOptions {
  /** The database users sign in to (`DATABASE_URL`); its user and password are replaced by the signing-in role's. */
  readonly databaseUrl: string;
  /** A session unused this long is ended and its pool closed (`NLQ_WEB_SESSION_IDLE_MINUTES`). Default 30 minutes. */
  readonly idleMilliseconds?: number;
  /** Most connections of one user at a time. Default 3. */
  readonly connectionsPerSession?: number;
  /** Clock, for tests. Default `Date.now`. */
  readonly now?: () => number;
}

export interface RoleSessions {
  /**
   * Connects as `user` with `password` (PostgreSQL checks them as for any client), and on success opens the user's
   * session. Throws `SignInRejectedError` (28P01/28000) when PostgreSQL refuses the role, `DatabaseConnectionError`
   * when the server cannot be reached. The password lives only in the session's pool, never in a cookie or log.
   */
  signIn(user: string, password: string): Promise<RoleSession>;
  /** The live session with this id (its idle clock restarts), or undefined when unknown or expired. */
  get(id: string): RoleSession | undefined;
  /** Ends a session and closes its connections. Unknown ids are ignored. */
  signOut(id: string): Promise<void>;
  /** Ends idle sessions now (also runs on a timer). */
  sweep(): Promise<void>;
  /** Ends every session. */
  close(): Promise<void>;
}

/** SQLSTATEs of a refused sign-in: invalid_password and invalid_authorization_specification (no such role, pg_hba). */
const refusedCodes = new Set(["28P01", "28000"]);

/**
 * Per-user sessions of the web app in server memory: a restart signs everyone out. Each session owns a pool of
 * connections authenticated as the user's own role, so privileges and row-level security apply as in psql.
 */
export function createRoleSessions(options: RoleSessionsOptions): RoleSessions {
  const idleMilliseconds = options.idleMilliseconds ?? 30 * 60_000;
  const now = options.now ?? Date.now;
  const sessions = new Map<string, { session: RoleSession; lastUsed: number }>();
  const timer = setInterval(() => void sweep(), Math.min(idleMilliseconds, 60_000));
  timer.unref();

  async function end(id: string): Promise<void> {
    const entry = sessions.get(id);
    if (!entry) return;
    sessions.delete(id);
    await entry.session.pool.end().catch(() => undefined);
  }

  async function sweep(): Promise<void> {
    const cutoff = now() - idleMilliseconds;
    const idle = [...sessions].filter(([, entry]) => entry.lastUsed <= cutoff).map(([id]) => id);
    await Promise.all(idle.map(end));
  }

  return {
    async signIn(user, password) {
      const url = new URL(options.databaseUrl);
      // node-postgres lets the connection string win over separate fields, so the role goes into the URL.
      url.username = encodeURIComponent(user);
      url.password = encodeURIComponent(password);
      const pool = new pg.Pool({
        connectionString: url.toString(),
        max: options.connectionsPerSession ?? 3,
        idleTimeoutMillis: 60_000,
        application_name: "nlq-web",
      });
      pool.on("error", (error) => console.error("nlq web: idle database connection failed", error.message));
      let identity: { role: string; database: string };
      try {
        const client = await pool.connect();
        try {
          const result = await client.query<{ role: string; database: string }>(
            "SELECT current_user AS role, pg_catalog.current_database() AS database",
          );
          identity = result.rows[0]!;
        } finally {
          client.release();
        }
      } catch (error) {
        await pool.end().catch(() => undefined);
        const code = (error as { code?: unknown }).code;
        if (typeof code === "string" && refusedCodes.has(code)) {
          throw new SignInRejectedError(code, { cause: error });
        }
        // The message of a connection failure names host and port, never the password.
        const reason = error instanceof Error ? error.message : String(error);
        throw new DatabaseConnectionError(`cannot connect to the database: ${reason}`, { cause: error });
      }
      const session: RoleSession = {
        id: randomBytes(32).toString("base64url"),
        role: identity.role,
        database: identity.database,
        pool,
      };
      sessions.set(session.id, { session, lastUsed: now() });
      return session;
    },
    get(id) {
      const entry = sessions.get(id);
      if (!entry) return undefined;
      if (entry.lastUsed <= now() - idleMilliseconds) {
        void end(id);
        return undefined;
      }
      entry.lastUsed = now();
      return entry.session;
    },
    signOut: end,
    sweep,
    async close() {
      clearInterval(timer);
      await Promise.all([...sessions.keys()].map(end));
    },
  };
}
