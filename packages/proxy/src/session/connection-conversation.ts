import type { Answer, ConversationTurn } from "@nlq/engine";

/** Earlier questions a follow-up on one connection is shown (oldest dropped first). */
export const CONVERSATION_TURN_LIMIT = 3;

/** Rows of the last answer kept for a later pick (its interpretations carry their own previews). */
const KEPT_ROWS = 5;

/**
 * What one proxy connection remembers between its questions (issue 19 items 2 and 3): its last few questions with
 * the SQL that answered them, shown to the generator so that `/* nl: and by month? *\/` follows them, and its last
 * answer, whose interpretations `/* nl#2 *\/;` picks from. Ordinary SQL on the connection, or a `/* nl!: … *\/`
 * question, starts afresh (the last answer stays pickable until the next answer). Bounded: at most
 * `CONVERSATION_TURN_LIMIT` turns and one answer, its rows cut to a preview and its model calls dropped.
 */
export class ConnectionConversation {
  #turns: ConversationTurn[] = [];
  #lastAnswer: Answer | undefined;

  /** The earlier turns a follow-up is asked with, oldest first (empty after a fresh start). */
  get previousTurns(): readonly ConversationTurn[] {
    return this.#turns;
  }

  /** Whether a follow-up would be shown earlier turns (the connection must watch its SQL to forget them). */
  get following(): boolean {
    return this.#turns.length > 0;
  }

  /** The connection's last answer (or pick), kept for a pick; undefined before any. */
  get lastAnswer(): Answer | undefined {
    return this.#lastAnswer;
  }

  /** Forgets the earlier questions (ordinary SQL ran, or a fresh question is asked); the last answer stays pickable. */
  startAfresh(): void {
    if (this.#turns.length > 0) this.#turns = [];
  }

  /** Remembers an answered question as the latest turn and as the answer to pick from. */
  answered(answer: Answer): void {
    this.#turns.push({ question: answer.question, sql: answer.sql });
    if (this.#turns.length > CONVERSATION_TURN_LIMIT) this.#turns.shift();
    this.#lastAnswer = compact(answer);
  }

  /** A pick replaced the last answer: its SQL now stands for that question in later follow-ups. */
  picked(answer: Answer): void {
    const last = this.#turns.at(-1);
    if (last !== undefined && last.question === answer.question)
      this.#turns[this.#turns.length - 1] = { ...last, sql: answer.sql };
    this.#lastAnswer = compact(answer);
  }
}

function compact(answer: Answer): Answer {
  return {
    ...answer,
    result: { ...answer.result, rows: answer.result.rows.slice(0, KEPT_ROWS) },
    calls: [],
  };
}
