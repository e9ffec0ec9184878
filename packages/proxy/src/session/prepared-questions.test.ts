import type { Answer } from "@nlq/engine";
import { serialize } from "pg-protocol";
import { describe, expect, it } from "vitest";
import { PreparedQuestions } from "./prepared-questions";

const answer = { sql: "SELECT 1" } as Answer;

describe("PreparedQuestions", () => {
  it("keeps the answer of a statement's Parse batch, and forgets it at Close or a failed Parse", () => {
    const statements = new PreparedQuestions();
    statements.parsed("s", "q");
    expect(statements.get("s")).toEqual({ question: "q", answer: undefined });
    statements.settle([serialize.parse({ name: "s", text: "/* nl: q */" }), serialize.sync()], answer);
    expect(statements.get("s")?.answer).toBe(answer);

    statements.settle([serialize.bind({ statement: "s" }), serialize.close({ type: "S", name: "s" })], answer);
    expect(statements.has("s")).toBe(false);

    statements.parsed("t", "q");
    statements.settle([serialize.parse({ name: "t", text: "/* nl: q */" }), serialize.sync()], undefined);
    expect(statements.has("t")).toBe(false);
  });

  it("keeps the statement when a later batch fails (its Close never ran)", () => {
    const statements = new PreparedQuestions();
    statements.parsed("s", "q");
    statements.generated("s", answer);
    statements.settle([serialize.bind({ statement: "s" }), serialize.close({ type: "S", name: "s" })], undefined);
    expect(statements.get("s")?.answer).toBe(answer);
  });
});
