import { createPgExecutor } from "@nlq/adapters";
import type { ChatSession } from "./chat-handler";
import { openPoolSession } from "./pg-session";
import type { WebUser } from "./web-user";

/** A dedicated connection of the user's own pool (authenticated as the user's role) as a `QueryExecutor`. */
export function openUserSession(user: WebUser, abortSignal?: AbortSignal): Promise<ChatSession> {
  return openPoolSession(user.pool, (connection) => createPgExecutor(connection), abortSignal);
}

/**
 * Runs `work` on a dedicated connection of the user's own pool and releases it after; a connection whose work threw
 * is discarded rather than returned to the pool.
 */
export async function withUserSession<T>(
  user: WebUser,
  work: (session: ChatSession) => Promise<T>,
  abortSignal?: AbortSignal,
): Promise<T> {
  const session = await openUserSession(user, abortSignal);
  let failed = true;
  try {
    const result = await work(session);
    failed = false;
    return result;
  } finally {
    session.release(failed);
  }
}
