import type { Answer } from "@nlq/engine";
import { singleCandidateSelection } from "@nlq/engine/testing";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AnswerView } from "../components/answer-view";
import { answerData } from "./answer-data";
import { showsAnswerKnowledge } from "./knowledge-used-shown";

const answer: Answer = {
  question: "What is our net revenue?",
  sql: "SELECT sum(total_cents) / 100.0 AS net_revenue FROM orders",
  result: {
    fields: [
      { name: "net_revenue", dataTypeId: 1700, dataTypeSize: -1, dataTypeModifier: -1, tableId: 0, columnId: 0 },
    ],
    rows: [["12.5"]],
    command: "SELECT 1",
  },
  truncated: false,
  selection: singleCandidateSelection,
  model: { id: "test:model", scripted: false },
  candidates: [],
  calls: [],
  elapsedMilliseconds: 1,
};

describe("the knowledge an answer used", () => {
  it("is listed under the answer by kind and name (as text), with a link to the knowledge page", () => {
    const used = [
      { id: "e1", kind: "metric" as const, name: "net revenue" },
      { id: "e2", kind: "rule" as const, name: "<b>no test accounts</b>" },
    ];
    const html = renderToStaticMarkup(
      createElement(AnswerView, { answer: answerData({ ...answer, knowledgeUsed: used }, 0) }),
    );
    expect(html).toContain('aria-label="Knowledge used"');
    expect(html).toContain("metric <strong>net revenue</strong>");
    expect(html).toContain("&lt;b&gt;no test accounts&lt;/b&gt;");
    expect(html).toContain('href="/knowledge"');
  });

  it("is not mentioned when the answer used none", () => {
    const html = renderToStaticMarkup(createElement(AnswerView, { answer: answerData(answer, 0) }));
    expect(html).not.toContain("Knowledge used");
  });

  it("stays under a reading picked from the answer's candidates, and goes for SQL the user edited", () => {
    expect(showsAnswerKnowledge({ edited: false })).toBe(true);
    expect(showsAnswerKnowledge({ edited: true, reading: 2 })).toBe(true);
    expect(showsAnswerKnowledge({ edited: true })).toBe(false);
  });
});
