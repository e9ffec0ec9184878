import type { Answer } from "@nlq/engine";
import { singleCandidateSelection } from "@nlq/engine/testing";
import type { BackendMessage } from "pg-protocol/dist/messages";
import { Parser } from "pg-protocol/dist/parser";
import { describe, expect, it } from "vitest";
import { encodeAnswer } from "./answer-messages";

const answer: Answer = {
  question: "how many?",
  sql: "SELECT count(*) FROM orders",
  result: {
    fields: [{ name: "count", dataTypeId: 20, dataTypeSize: 8, dataTypeModifier: -1, tableId: 0, columnId: 0 }],
    rows: [["2"]],
    command: "SELECT 1",
  },
  truncated: false,
  selection: singleCandidateSelection,
  model: { id: "openai:gpt-4o-mini", scripted: false },
  candidates: [],
  calls: [],
  elapsedMilliseconds: 5,
};

function parseAll(buffers: Buffer[]): Array<BackendMessage & Record<string, unknown>> {
  const messages: Array<BackendMessage & Record<string, unknown>> = [];
  new Parser().parse(Buffer.concat(buffers), (message) =>
    messages.push(message as BackendMessage & Record<string, unknown>),
  );
  return messages;
}

describe("encodeAnswer", () => {
  it("sends the SQL as a NOTICE, then the rows, the tag and ReadyForQuery", () => {
    const messages = parseAll(encodeAnswer(answer, "T"));
    expect(messages.map((message) => message.name)).toEqual([
      "notice",
      "rowDescription",
      "dataRow",
      "commandComplete",
      "readyForQuery",
    ]);
    expect(messages[0]).toMatchObject({ message: "nlq: SELECT count(*) FROM orders", severity: "NOTICE" });
    expect(messages[0]?.detail).toContain("openai:gpt-4o-mini");
    expect(messages[2]).toMatchObject({ fields: ["2"] });
    expect(messages[3]).toMatchObject({ text: "SELECT 1" });
    expect(messages[4]).toMatchObject({ status: "T" });
  });

  it("says so when the answer came from a scripted replay, and when rows were cut", () => {
    const messages = parseAll(
      encodeAnswer({ ...answer, truncated: true, model: { id: "scripted:demo.json", scripted: true } }, "I"),
    );
    const notices = messages.filter((message) => message.name === "notice").map((message) => message.message);
    expect(notices).toHaveLength(3);
    expect(notices[1]).toMatch(/scripted replay of recorded responses \(scripted:demo\.json\), not a language model/);
    expect(notices[2]).toMatch(/truncated to the first 1 rows \(NLQ_ROW_LIMIT\)/);
  });

  it("says which definitions the answer used, before its rows", () => {
    const messages = parseAll(
      encodeAnswer({ ...answer, knowledgeUsed: [{ id: "k1", kind: "metric", name: "net revenue" }] }, "I"),
    );
    expect(messages.map((message) => message.name).slice(0, 3)).toEqual(["notice", "notice", "rowDescription"]);
    expect(messages[1]).toMatchObject({ message: "nlq: used 1 definition: metric «net revenue»", severity: "NOTICE" });
  });

  it("sends the plain-language sentence after the SQL, labelled when a scripted replay wrote it", () => {
    const summary = { sentence: "There are 2 orders.", model: "scripted:demo.json", scripted: true };
    const notices = parseAll(encodeAnswer({ ...answer, summary }, "I"))
      .filter((message) => message.name === "notice")
      .map((message) => message.message);
    expect(notices).toEqual([
      "nlq: SELECT count(*) FROM orders",
      "nlq: answer: There are 2 orders. (scripted replay, not a language model)",
    ]);
  });

  it("says when the byte limit cut the answer and its statement was cancelled", () => {
    const messages = parseAll(encodeAnswer({ ...answer, truncated: true, truncatedBy: "bytes" }, "I"));
    const notices = messages.filter((message) => message.name === "notice").map((message) => message.message);
    expect(notices.at(-1)).toMatch(
      /truncated to the first 1 rows: the byte limit \(NLQ_RESULT_BYTE_LIMIT\) was reached and the statement cancelled/,
    );
  });
});
