import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { goldReadingsOf, readQuestionFile } from "./question-set";

const directory = mkdtempSync(path.join(tmpdir(), "nlq-question-set-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function jsonl(name: string, lines: unknown[]): string {
  const file = path.join(directory, name);
  writeFileSync(file, lines.map((line) => JSON.stringify(line)).join("\n"));
  return file;
}

describe("readQuestionFile: gold readings and databases", () => {
  it("reads several readings from a gold list, golds, or query1, query2, … (AmbiQT), the first as gold", async () => {
    const questions = await readQuestionFile(
      jsonl("readings.jsonl", [
        { id: "list", question: "q", gold: ["SELECT 1", "SELECT 2"] },
        { id: "golds", question: "q", golds: ["SELECT 3", "SELECT 4", "SELECT 5"] },
        { id: "ambiqt", question: "q", query1: "SELECT 6", query2: "SELECT 7", orig_query: "SELECT 0" },
        { id: "one", question: "q", gold: "SELECT 8", database: "shop_eu", schema: "sales" },
        { id: "list-of-one", question: "q", gold: ["SELECT 9"] },
      ]),
    );
    expect(questions.map((question) => [question.id, question.gold, goldReadingsOf(question)])).toEqual([
      ["list", "SELECT 1", ["SELECT 1", "SELECT 2"]],
      ["golds", "SELECT 3", ["SELECT 3", "SELECT 4", "SELECT 5"]],
      ["ambiqt", "SELECT 6", ["SELECT 6", "SELECT 7"]],
      ["one", "SELECT 8", ["SELECT 8"]],
      ["list-of-one", "SELECT 9", ["SELECT 9"]],
    ]);
    expect(questions[3]).toMatchObject({ database: "shop_eu", schema: "sales" });
    expect(questions[0]!.database).toBeUndefined();
  });

  it("refuses an empty or non-text reading, naming the line", async () => {
    await expect(readQuestionFile(jsonl("empty.jsonl", [{ question: "q", gold: [] }]))).rejects.toThrow(
      "line 1: every gold reading must be a non-empty string",
    );
    await expect(readQuestionFile(jsonl("number.jsonl", [{ question: "q", gold: ["SELECT 1", 2] }]))).rejects.toThrow(
      "line 1",
    );
  });
});
