import { describe, expect, it } from "vitest";
import { compactMessagesForRequest } from "./compact-messages";
import { messagesOfThread } from "./thread-messages";

describe("messagesOfThread", () => {
  it("turns stored turns into question and reply messages that carry the turn id and feedback", () => {
    const messages = messagesOfThread([
      {
        id: "t1",
        question: "how many customers are there?",
        sql: "SELECT 1",
        reply: {
          answer: {
            question: "how many customers are there?",
            sql: "SELECT 1",
            fields: [{ name: "n", dataTypeId: 23 }],
            rows: [["1"]],
            truncated: false,
            confidence: 1,
            model: { id: "scripted:x", scripted: true },
            elapsedMilliseconds: 1,
            candidates: 1,
            languageModelCalls: 1,
          },
        },
        feedback: "up",
      },
      {
        id: "t2",
        question: "bounce rate?",
        sql: null,
        reply: { error: { code: "22023", name: "E", message: "no" } },
        feedback: null,
      },
    ]);
    expect(messages.map((message) => [message.role, message.parts.map((part) => part.type)])).toEqual([
      ["user", ["text"]],
      ["assistant", ["data-answer", "data-turn"]],
      ["user", ["text"]],
      ["assistant", ["data-error", "data-turn"]],
    ]);
    expect(messages[1]?.parts[1]).toEqual({ type: "data-turn", id: "turn", data: { id: "t1", feedback: "up" } });
    // A reopened thread's answers go back to the server as SQL only, like live ones.
    const compacted = compactMessagesForRequest(messages);
    expect(JSON.stringify(compacted)).not.toContain('"rows":[["1"]]');
  });

  it("offers the rows the history did not keep as more rows to load", () => {
    const [, reply] = messagesOfThread([
      {
        id: "t1",
        question: "list",
        sql: "SELECT 1",
        reply: {
          answer: {
            question: "list",
            sql: "SELECT 1",
            fields: [],
            rows: [],
            truncated: false,
            storedRows: 200,
            confidence: 1,
            model: { id: "m", scripted: false },
            elapsedMilliseconds: 1,
            candidates: 1,
            languageModelCalls: 1,
          },
        },
        feedback: null,
      },
    ]);
    expect(reply?.parts[0]).toMatchObject({ type: "data-answer", data: { truncated: true, truncatedBy: "rows" } });
  });
});
