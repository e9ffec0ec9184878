import type { AnswerData, ErrorData, NlqUIMessage } from "./chat-message";

/** A stored turn as `GET /api/threads/:id` returns it. */
export interface StoredTurn {
  readonly id: string;
  readonly question: string;
  readonly sql: string | null;
  readonly reply: { readonly answer?: AnswerData & { readonly storedRows?: number }; readonly error?: ErrorData };
  readonly feedback: "up" | "down" | null;
}

/** The chat messages of a reopened thread: each turn's question and its stored answer or error. */
export function messagesOfThread(turns: readonly StoredTurn[]): NlqUIMessage[] {
  return turns.flatMap((turn): NlqUIMessage[] => {
    const parts: NlqUIMessage["parts"] = [];
    const answer = turn.reply.answer;
    if (answer) {
      // The history kept only the first rows: the page offers the rest as "load more" (a read-only re-run).
      const data: AnswerData =
        answer.storedRows !== undefined && !answer.truncated
          ? { ...answer, truncated: true, truncatedBy: "rows" }
          : answer;
      parts.push({ type: "data-answer", id: "answer", data });
    } else if (turn.reply.error) parts.push({ type: "data-error", id: "error", data: turn.reply.error });
    parts.push({ type: "data-turn", id: "turn", data: { id: turn.id, feedback: turn.feedback } });
    return [
      { id: `${turn.id}-question`, role: "user", parts: [{ type: "text", text: turn.question }] },
      { id: `${turn.id}-reply`, role: "assistant", parts },
    ];
  });
}
