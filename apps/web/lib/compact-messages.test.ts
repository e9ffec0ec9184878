import { describe, expect, it } from "vitest";
import type { AnswerData, NlqUIMessage } from "./chat-message";
import { previousTurnsFromBody, questionFromBody } from "./chat-request";
import { compactMessagesForRequest } from "./compact-messages";

const answer: AnswerData = {
  question: "how many customers are there?",
  sql: "SELECT count(*) AS customers FROM customers",
  fields: [{ name: "customers", dataTypeId: 20 }],
  rows: Array.from({ length: 500 }, (_, row) => [String(row)]),
  truncated: false,
  confidenceBasis: "one candidate was written: nothing to compare",
  clusters: 1,
  model: { id: "scripted:demo-model.json", scripted: true },
  elapsedMilliseconds: 4,
  candidates: 1,
  languageModelCalls: 1,
};

const conversation: NlqUIMessage[] = [
  { id: "u1", role: "user", parts: [{ type: "text", text: "how many customers are there?" }] },
  {
    id: "a1",
    role: "assistant",
    parts: [
      { type: "data-step", id: "catalog", data: { label: "Read the schema", status: "done" } },
      { type: "data-answer", id: "answer", data: answer },
    ],
  },
  { id: "u2", role: "user", parts: [{ type: "text", text: "and in Berlin?" }] },
];

describe("compactMessagesForRequest", () => {
  it("drops rows and steps but keeps what the server reads: questions and earlier SQL", () => {
    const compacted = compactMessagesForRequest(conversation);
    expect(JSON.stringify(compacted).length).toBeLessThan(1_000);
    const body = { messages: compacted };
    expect(questionFromBody(body)).toBe("and in Berlin?");
    expect(previousTurnsFromBody(body)).toEqual([{ question: "how many customers are there?", sql: answer.sql }]);
  });

  it("keeps only the latest turns", () => {
    const long = Array.from({ length: 40 }, (_, turn) => conversation[turn % 2]!).concat(conversation[2]!);
    expect(compactMessagesForRequest(long)).toHaveLength(13);
  });
});
