import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findUpwards, questionsOfFixture } from "./suggested-questions";

const root = mkdtempSync(path.join(tmpdir(), "nlq-web-suggestions-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("questionsOfFixture", () => {
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

  it("offers nothing for a malformed fixture", () => {
    expect(questionsOfFixture({ nothing: true })).toEqual([]);
    expect(questionsOfFixture(null)).toEqual([]);
  });
});

describe("findUpwards", () => {
  it("finds a file from a nested working directory", () => {
    mkdirSync(path.join(root, "fixtures"));
    mkdirSync(path.join(root, "apps", "web"), { recursive: true });
    writeFileSync(path.join(root, "fixtures", "demo-model.json"), "{}");
    expect(findUpwards(path.join(root, "apps", "web"), "fixtures/demo-model.json")).toBe(
      path.join(root, "fixtures", "demo-model.json"),
    );
    expect(findUpwards(path.join(root, "apps"), "fixtures/none.json")).toBeUndefined();
  });
});
