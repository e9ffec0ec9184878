import type { Answer } from "@nlq/engine";
import { singleCandidateSelection } from "@nlq/engine/testing";
import { describe, expect, it } from "vitest";
import { CONVERSATION_TURN_LIMIT, ConnectionConversation } from "./connection-conversation";

const answerTo = (question: string, rows = 1): Answer => ({
  question,
  sql: `SELECT '${question}'`,
  result: { fields: [], rows: Array.from({ length: rows }, (_, index) => [String(index)]), command: "SELECT" },
  truncated: false,
  selection: singleCandidateSelection,
  model: { id: "test:model", scripted: false },
  candidates: [],
  calls: [{ step: "generate-candidate" } as unknown as Answer["calls"][number]],
  elapsedMilliseconds: 1,
});

describe("ConnectionConversation", () => {
  it("keeps the last few turns, oldest first, and forgets them on a fresh start but not the last answer", () => {
    const conversation = new ConnectionConversation();
    for (const question of ["a", "b", "c", "d"]) conversation.answered(answerTo(question));
    expect(conversation.previousTurns.map((turn) => turn.question)).toEqual(["b", "c", "d"]);
    expect(conversation.previousTurns).toHaveLength(CONVERSATION_TURN_LIMIT);
    conversation.startAfresh();
    expect(conversation.following).toBe(false);
    expect(conversation.lastAnswer?.question).toBe("d");
  });

  it("keeps only a preview of the last answer's rows and none of its model calls", () => {
    const conversation = new ConnectionConversation();
    conversation.answered(answerTo("big", 10_000));
    expect(conversation.lastAnswer?.result.rows).toHaveLength(5);
    expect(conversation.lastAnswer?.calls).toEqual([]);
  });

  it("lets a pick's SQL stand for its question in later follow-ups", () => {
    const conversation = new ConnectionConversation();
    conversation.answered(answerTo("q"));
    conversation.picked({ ...answerTo("q"), sql: "SELECT 2" });
    expect(conversation.previousTurns).toEqual([{ question: "q", sql: "SELECT 2" }]);
  });
});
