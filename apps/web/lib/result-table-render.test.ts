import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AnswerView } from "../components/answer-view";
import { ErrorView } from "../components/error-view";
import { ResultTable } from "../components/result-table";
import type { AnswerData } from "./chat-message";

describe("ResultTable", () => {
  it("names columns after the fields, marks NULL, right-aligns numbers and says when rows were cut", () => {
    const html = renderToStaticMarkup(
      createElement(ResultTable, {
        fields: [
          { name: "city", dataTypeId: 25 },
          { name: "customers", dataTypeId: 20 },
        ],
        rows: [
          ["Berlin", "12"],
          [null, "3"],
        ],
        truncated: true,
      }),
    );
    expect(html).toContain('<th scope="col"><button type="button" class="sort-button" title="Sort by city">city');
    expect(html).toContain('<th scope="col" class="numeric"><button type="button" class="sort-button"');
    expect(html).toContain('<td><span class="null">NULL</span></td>');
    expect(html).toContain('<span data-testid="row-count">2 rows</span>');
    expect(html).toContain(">truncated</span>");
  });

  it("names the byte limit when it cut the result", () => {
    const html = renderToStaticMarkup(
      createElement(ResultTable, {
        fields: [{ name: "n", dataTypeId: 23 }],
        rows: [["1"]],
        truncated: true,
        truncatedBy: "bytes",
      }),
    );
    expect(html).toContain(">truncated: byte limit</span>");
  });

  it("says nothing about truncation when the result is complete", () => {
    const html = renderToStaticMarkup(
      createElement(ResultTable, { fields: [{ name: "n", dataTypeId: 23 }], rows: [["1"]], truncated: false }),
    );
    expect(html).toContain("1 row");
    expect(html).not.toContain("truncated");
  });
});

describe("AnswerView", () => {
  const answer: AnswerData = {
    question: "q",
    sql: "SELECT 1",
    fields: [{ name: "n", dataTypeId: 23 }],
    rows: [["1"]],
    truncated: false,
    confidence: 0.5,
    confidenceBasis: "1 of 2 candidates returned this result",
    clusters: 2,
    model: { id: "openai:gpt-4o-mini", scripted: false },
    elapsedMilliseconds: 5,
    candidates: 2,
    languageModelCalls: 3,
  };

  it("labels scripted replays and only those", () => {
    const real = renderToStaticMarkup(createElement(AnswerView, { answer }));
    expect(real).not.toContain("scripted replay");
    expect(real).toContain("openai:gpt-4o-mini");
    expect(real).toContain("confidence 50%");
    const scripted = renderToStaticMarkup(
      createElement(AnswerView, { answer: { ...answer, model: { id: "scripted:/x/demo.json", scripted: true } } }),
    );
    expect(scripted).toContain("scripted replay — not a language model");
    expect(scripted).toContain("scripted:demo.json");
  });
});

describe("ErrorView", () => {
  it("shows the SQLSTATE, the message, the hint and the failed SQL", () => {
    const html = renderToStaticMarkup(
      createElement(ErrorView, {
        error: {
          code: "42P01",
          name: "DatabaseError",
          message: 'relation "customer" does not exist',
          sql: "SELECT * FROM customer",
          hint: "Perhaps you meant customers.",
        },
      }),
    );
    expect(html).toContain('role="alert"');
    expect(html).toContain("SQLSTATE 42P01");
    expect(html).toContain("relation &quot;customer&quot; does not exist");
    expect(html).toContain("Hint: Perhaps you meant customers.");
    expect(html).toContain("SELECT * FROM customer");
  });

  it("names a missing model configuration", () => {
    const html = renderToStaticMarkup(
      createElement(ErrorView, { error: { code: "55000", name: "ModelConfigurationError", message: "set NLQ_MODEL" } }),
    );
    expect(html).toContain("No language model is configured");
  });
});
