import type { Answer } from "@nlq/engine";
import { singleCandidateSelection } from "@nlq/engine/testing";
import { serialize } from "pg-protocol";
import type { BackendMessage } from "pg-protocol/dist/messages";
import { Parser } from "pg-protocol/dist/parser";
import { describe, expect, it } from "vitest";
import { readBind } from "../protocol/extended-messages";
import { checkQuestionBatch, encodeExtendedAnswer } from "./extended-answer";
import { UnsupportedQuestionBatchError } from "./question-errors";

const answer: Answer = {
  question: "q",
  sql: "SELECT 1 AS one",
  result: {
    fields: [{ name: "one", dataTypeId: 23, dataTypeSize: 4, dataTypeModifier: -1, tableId: 0, columnId: 0 }],
    rows: [["1"]],
    command: "SELECT 1",
  },
  truncated: false,
  selection: singleCandidateSelection,
  model: { id: "test:model", scripted: false },
  candidates: [],
  calls: [],
  elapsedMilliseconds: 1,
};

function names(buffers: Buffer[]): string[] {
  const parsed: string[] = [];
  new Parser().parse(Buffer.concat(buffers), (message: BackendMessage) => parsed.push(message.name));
  return parsed;
}

describe("extended-protocol question batches", () => {
  it("replies to Parse/Describe/Bind/Execute/Close/Sync like PostgreSQL", () => {
    const batch = [
      serialize.parse({ text: "/* nl: q */", name: "s" }),
      serialize.describe({ type: "S", name: "s" }),
      serialize.bind({ statement: "s" }),
      serialize.describe({ type: "P" }),
      serialize.execute(),
      serialize.close({ type: "S", name: "s" }),
      serialize.flush(),
      serialize.sync(),
    ];
    expect(() => checkQuestionBatch(batch, "s")).not.toThrow();
    expect(names(encodeExtendedAnswer(batch, answer, "I"))).toEqual([
      "notice",
      "parseComplete",
      "parameterDescription",
      "rowDescription",
      "bindComplete",
      "rowDescription",
      "dataRow",
      "commandComplete",
      "closeComplete",
      "readyForQuery",
    ]);
  });

  it("refuses parameters, binary results and foreign messages", () => {
    const parse = serialize.parse({ text: "/* nl: q */" });
    expect(() => checkQuestionBatch([parse, serialize.bind({ values: ["1"] }), serialize.sync()], "")).toThrow(
      /no parameters/,
    );
    expect(() => checkQuestionBatch([parse, serialize.bind({ binary: true }), serialize.sync()], "")).toThrow(
      UnsupportedQuestionBatchError,
    );
    expect(() => checkQuestionBatch([parse, serialize.query("select 1"), serialize.sync()], "")).toThrow(/alone/);
  });

  it("refuses messages about another statement or portal in the question's batch", () => {
    const parse = serialize.parse({ text: "/* nl: q */", name: "s" });
    const bound = serialize.bind({ statement: "s", portal: "p" });
    const refused = [
      [parse, serialize.parse({ text: "select 1", name: "other" })],
      [parse, serialize.bind({ statement: "other" })],
      [parse, serialize.describe({ type: "S", name: "other" })],
      [parse, bound, serialize.describe({ type: "P", name: "q" })],
      [parse, bound, serialize.execute({ portal: "q" })],
    ];
    for (const batch of refused) {
      expect(() => checkQuestionBatch([...batch, serialize.sync()], "s")).toThrow(/alone in its extended-protocol/);
    }
    expect(() =>
      checkQuestionBatch(
        [bound, serialize.describe({ type: "P", name: "p" }), serialize.execute({ portal: "p" }), serialize.sync()],
        "s",
      ),
    ).not.toThrow();
  });

  it("reads Bind messages", () => {
    expect(readBind(serialize.bind({ portal: "p", statement: "s", values: ["a", null], binary: true }))).toEqual({
      portal: "p",
      statementName: "s",
      parameterCount: 2,
      resultFormats: [1],
    });
  });
});
