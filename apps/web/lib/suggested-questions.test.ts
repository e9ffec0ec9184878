import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fallbackQuestions, questionsOfFixture, readSuggestedQuestions } from "./suggested-questions";

const root = mkdtempSync(path.join(tmpdir(), "nlq-web-suggestions-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("suggested questions", () => {
  it("lists the fixture's distinct questions in order, without the * fallback", () => {
    const fixture = {
      description: "Scripted",
      responses: [
        { step: "extract-keywords", question: "How many customers are there?", output: {} },
        { step: "generate-candidate", question: "how many customers are there", output: {} },
        { step: "generate-candidate", question: "*", output: {} },
        { step: "generate-candidate", question: "Top 5 products by revenue", output: {} },
      ],
    };
    expect(questionsOfFixture(fixture)).toEqual(["How many customers are there?", "Top 5 products by revenue"]);
  });

  it("finds fixtures/demo-model.json from a nested working directory", () => {
    mkdirSync(path.join(root, "fixtures"));
    mkdirSync(path.join(root, "apps", "web"), { recursive: true });
    writeFileSync(
      path.join(root, "fixtures", "demo-model.json"),
      JSON.stringify({ responses: [{ step: "s", question: "which country has most customers?", output: 1 }] }),
    );
    expect(readSuggestedQuestions(path.join(root, "apps", "web"))).toEqual(["which country has most customers?"]);
  });

  it("falls back to a short built-in list for missing or malformed fixtures", () => {
    expect(questionsOfFixture({ nothing: true })).toEqual(fallbackQuestions);
    expect(questionsOfFixture(null)).toEqual(fallbackQuestions);
    const empty = mkdtempSync(path.join(tmpdir(), "nlq-web-empty-"));
    try {
      expect(readSuggestedQuestions(empty).length).toBeGreaterThan(0);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
