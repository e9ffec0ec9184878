import type { Answer } from "@nlq/engine";
import { singleCandidateSelection } from "@nlq/engine/testing";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AnswerProvenance } from "../components/answer-provenance";
import { AnswerView } from "../components/answer-view";
import { answerData } from "./answer-data";

const reading = (number: number, sql: string, difference: string) => ({
  number,
  chosen: number === 1,
  sql,
  support: 1,
  share: 1 / 3,
  columns: ["price"],
  rows: [["1"]],
  rowCount: 1,
  truncated: false,
  difference,
});

const answer: Answer = {
  question: "How expensive are the products?",
  sql: "SELECT avg(price) AS price FROM products",
  result: {
    fields: [{ name: "price", dataTypeId: 1700, dataTypeSize: -1, dataTypeModifier: -1, tableId: 0, columnId: 0 }],
    rows: [["15.5"]],
    command: "SELECT 1",
  },
  truncated: false,
  selection: { ...singleCandidateSelection, candidates: 3 },
  model: { id: "test:model", scripted: false },
  candidates: [],
  calls: [],
  elapsedMilliseconds: 1,
  interpretations: [
    reading(1, "SELECT avg(price) AS price FROM products", "the chosen reading"),
    reading(2, "SELECT max(price) AS price FROM products", "returns max(price) instead of avg(price) <b>x</b>"),
  ],
  needsChoice: true,
  choiceBasis: "no clear majority",
};

describe("the interpretations under an answer", () => {
  it("keeps each reading's number, SQL, support and difference in the page's answer data", () => {
    const data = answerData(answer, 0);
    expect(data.interpretations).toEqual([
      {
        number: 1,
        chosen: true,
        sql: "SELECT avg(price) AS price FROM products",
        support: 1,
        outOf: 3,
        difference: "the chosen reading",
      },
      {
        number: 2,
        chosen: false,
        sql: "SELECT max(price) AS price FROM products",
        support: 1,
        outOf: 3,
        difference: "returns max(price) instead of avg(price) <b>x</b>",
      },
    ]);
    expect(data.needsChoice).toBe(true);
    expect(answerData({ ...answer, interpretations: undefined }, 0).interpretations).toBeUndefined();
  });

  it("shows one button per reading, the shown one pressed, the difference as text", () => {
    const html = renderToStaticMarkup(createElement(AnswerView, { answer: answerData(answer, 0) }));
    expect(html).toContain("<legend>Which did you mean? The candidates read the question 2 ways</legend>");
    expect(html).toContain('aria-pressed="true"');
    expect(html).toContain("#2 · 1 of 3 candidates · returns max(price) instead of avg(price) &lt;b&gt;x&lt;/b&gt;");
    expect(html).not.toContain("<b>x</b>");
    const without = renderToStaticMarkup(
      createElement(AnswerView, { answer: answerData({ ...answer, interpretations: undefined }, 0) }),
    );
    expect(without).not.toContain('data-testid="interpretations"');
  });

  it("offers 'Use this from now on' beside each reading of a stored turn, and nothing to confirm without one", () => {
    const stored = renderToStaticMarkup(createElement(AnswerView, { answer: answerData(answer, 0), turnId: "t-1" }));
    expect(stored).toContain('aria-label="Use this from now on: reading #1"');
    expect(stored).toContain('aria-label="Use this from now on: reading #2"');
    expect(stored.match(/>Use this from now on</g)).toHaveLength(2);
    const unstored = renderToStaticMarkup(createElement(AnswerView, { answer: answerData(answer, 0) }));
    expect(unstored).not.toContain("Use this from now on");
  });

  it("labels a picked reading as a candidate's SQL validated again, not as the user's edit", () => {
    const html = renderToStaticMarkup(
      createElement(AnswerProvenance, { answer: answerData(answer, 0), edited: true, reading: 2 }),
    );
    expect(html).toContain("reading #2");
    expect(html).toContain(
      "a candidate&#x27;s SQL (1 of 3 candidates), validated again and run read-only as your role",
    );
    expect(html).not.toContain("your edited SQL");
    expect(html).not.toContain("written by you");
    const edited = renderToStaticMarkup(
      createElement(AnswerProvenance, { answer: answerData(answer, 0), edited: true }),
    );
    expect(edited).toContain("your edited SQL");
  });
});
