import { handleChatRequest } from "../../../lib/chat-handler";
import { defaultChatDependencies } from "../../../lib/default-chat-dependencies";

/** Answers one chat question through @nlq/engine, streaming progress as AI SDK UI message parts. */
export async function POST(request: Request): Promise<Response> {
  return handleChatRequest(request, await defaultChatDependencies());
}
