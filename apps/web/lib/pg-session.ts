import { CancelledError, ConfigurationError, type QueryExecutor } from "@nlq/engine";
import pg from "pg";
import type { ChatSession } from "./chat-handler";
import { DatabaseConnectionError } from "./web-errors";

export interface WebPoolOptions {
  /** Connection string of the database the chat answers from (the app passes `WebSettings.databaseUrl`, `DATABASE_URL`). Required. */
  readonly connectionString: string | undefined;
  /** Most concurrent questions (connections): the app passes `WebSettings.webPoolSize` (`NLQ_WEB_POOL_SIZE`). Default 10. */
  readonly maximumConnections?: number;
}

/** A node-postgres pool for the chat's database; throws `ConfigurationError` when no URL is configured. */
export function createWebPool(options: WebPoolOptions): pg.Pool {
  const connectionString = options.connectionString;
  if (!connectionString) {
    throw new ConfigurationError("DATABASE_URL is not set: the web app needs the PostgreSQL database to answer from");
  }
  const pool = new pg.Pool({
    connectionString,
    max: options.maximumConnections ?? 10,
    application_name: "nlq-web",
  });
  // An idle connection that dies (server restart) must not crash the app; the pool replaces it.
  pool.on("error", (error) => console.error("nlq web: idle database connection failed", error.message));
  return pool;
}

/**
 * Opens one question's session: a dedicated pooled connection wrapped in a `QueryExecutor`.
 * `createExecutor` is @nlq/adapters' `createPgExecutor` in the app. Releasing after a failure or
 * cancellation discards the connection, so a half-finished statement never reaches the next question.
 */
export async function openPoolSession(
  pool: pg.Pool,
  createExecutor: (connection: pg.PoolClient) => QueryExecutor,
  abortSignal?: AbortSignal,
): Promise<ChatSession> {
  if (abortSignal?.aborted) throw new CancelledError();
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const reason = error instanceof Error ? error.message : String(error);
    throw new DatabaseConnectionError(
      `cannot connect to the database${typeof code === "string" ? ` (${code})` : ""}: ${reason}`,
      { cause: error },
    );
  }
  if (abortSignal?.aborted) {
    client.release(true);
    throw new CancelledError();
  }
  let released = false;
  return {
    executor: createExecutor(client),
    release(failed) {
      if (released) return;
      released = true;
      client.release(failed ? true : undefined);
    },
  };
}
