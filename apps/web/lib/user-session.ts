import { createPgExecutor } from "@nlq/adapters";
import type { ChatSession } from "./chat-handler";
import { openPoolSession } from "./pg-session";
import type { WebUser } from "./web-user";

/** A dedicated connection of the user's own pool (authenticated as the user's role) as a `QueryExecutor`. */
export function openUserSession(user: WebUser, abortSignal?: AbortSignal): Promise<ChatSession> {
  return openPoolSession(user.pool, (connection) => createPgExecutor(connection), abortSignal);
}
