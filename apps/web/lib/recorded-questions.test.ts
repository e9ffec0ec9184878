import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { recordedQuestions } from "./recorded-questions";

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

describe("recordedQuestions", () => {
  it("lists every recorded question of a scripted fixture, more than the six chips", () => {
    const directory = mkdtempSync(path.join(tmpdir(), "nlq-recorded-"));
    directories.push(directory);
    const fixture = path.join(directory, "model.json");
    const questions = Array.from({ length: 9 }, (_, index) => `question ${index}?`);
    writeFileSync(
      fixture,
      JSON.stringify({ responses: [...questions, "*", "question 0?"].map((question) => ({ step: "x", question })) }),
    );
    expect(recordedQuestions({ NLQ_MODEL: `scripted:${fixture}` })).toEqual(questions);
  });

  it("is empty for a language model or an unreadable fixture", () => {
    expect(recordedQuestions({ NLQ_MODEL: "openai:gpt-4o-mini" })).toEqual([]);
    expect(recordedQuestions({ NLQ_MODEL: "scripted:/nonexistent/model.json" })).toEqual([]);
    expect(recordedQuestions({})).toEqual([]);
  });
});
