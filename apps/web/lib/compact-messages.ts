import { maximumPreviousTurns, type NlqUIMessage } from "./chat-message";

/**
 * What the browser sends back for a new question: the last `maximumPreviousTurns` earlier turns and the
 * new question, with each answer reduced to its SQL. The rows, steps and errors already on the page are
 * not needed by the server, and a conversation with large results would otherwise grow every request.
 */
export function compactMessagesForRequest(messages: readonly NlqUIMessage[]): NlqUIMessage[] {
  const compacted = messages.map((message): NlqUIMessage => {
    if (message.role !== "assistant") return { id: message.id, role: message.role, parts: message.parts };
    const answer = message.parts.find((part) => part.type === "data-answer");
    return {
      id: message.id,
      role: "assistant",
      parts:
        answer?.type === "data-answer"
          ? [{ type: "data-answer", id: "answer", data: { ...answer.data, rows: [], fields: [] } }]
          : [],
    };
  });
  // Each turn is a user message and (usually) an assistant reply; keep a little more than needed.
  return compacted.slice(-(maximumPreviousTurns * 2 + 1));
}
