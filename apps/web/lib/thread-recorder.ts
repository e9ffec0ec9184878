import type { ThreadOwner, WebThreadStore } from "@nlq/adapters";
import type { ConversationTurn } from "@nlq/engine";
import type { AnswerData, ErrorData, ThreadData } from "./chat-message";

/** Most rows of an answer kept in the history (the page shows them when a thread is reopened). */
export const maximumStoredRows = 200;

/** The reply of a turn as stored: the answer with its rows capped, or the error. */
export type StoredReply =
  | { readonly answer: AnswerData & { readonly storedRows?: number } }
  | { readonly error: ErrorData; readonly question: string };

/** Keeps the conversation of one user (role + data source) in the metadata store. */
export interface ThreadRecorder {
  /**
   * The thread a question goes to: `threadId` when it is the user's, else a new one titled by the question. Its
   * earlier turns (question + SQL, oldest first, at most `maximumTurns`) are the follow-up context.
   */
  open(
    threadId: string | undefined,
    question: string,
    maximumTurns: number,
  ): Promise<ThreadData & { readonly previousTurns: ConversationTurn[] }>;
  /** Appends a finished turn; returns its id. */
  record(threadId: string, question: string, reply: StoredReply): Promise<string | undefined>;
}

/** A `ThreadRecorder` over the metadata store's `WebThreadStore`, scoped to `owner`. */
export function createThreadRecorder(store: WebThreadStore, owner: ThreadOwner): ThreadRecorder {
  return {
    async open(threadId, question, maximumTurns) {
      const existing = threadId === undefined ? undefined : await store.get(owner, threadId);
      if (existing) {
        const previousTurns = existing.turns
          .slice(-maximumTurns)
          .map(
            (turn): ConversationTurn =>
              turn.sql ? { question: turn.question, sql: turn.sql } : { question: turn.question },
          );
        return { id: existing.thread.id, title: existing.thread.title, previousTurns };
      }
      const created = await store.create(owner, question);
      return { id: created.id, title: created.title, previousTurns: [] };
    },
    async record(threadId, question, reply) {
      // A failed SQL is no follow-up context (as in the browser's own turns): only answers carry SQL forward.
      const sql = "answer" in reply ? reply.answer.sql : undefined;
      const row = await store.appendTurn(owner, threadId, {
        question,
        ...(sql ? { sql } : {}),
        reply: capReply(reply) as unknown as Record<string, unknown>,
      });
      return row?.id;
    },
  };
}

/** The reply with at most `maximumStoredRows` rows; `storedRows` says how many were kept when it cut. */
export function capReply(reply: StoredReply): StoredReply {
  if (!("answer" in reply) || reply.answer.rows.length <= maximumStoredRows) return reply;
  return {
    answer: { ...reply.answer, rows: reply.answer.rows.slice(0, maximumStoredRows), storedRows: maximumStoredRows },
  };
}
