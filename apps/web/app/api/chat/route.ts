import { authorizeRequest } from "../../../lib/authorize-request";
import { handleChatRequest } from "../../../lib/chat-handler";
import { defaultChatDependencies } from "../../../lib/default-chat-dependencies";

/**
 * Answers one chat question through @nlq/engine as the signed-in user's own database role (single-user mode: the
 * configured role), streaming progress as AI SDK UI message parts.
 */
export async function POST(request: Request): Promise<Response> {
  const authorization = await authorizeRequest(request);
  if (!authorization.user) return authorization.response;
  return handleChatRequest(request, await defaultChatDependencies(authorization.user));
}
