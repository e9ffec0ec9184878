import { describe, expect, it } from "vitest";
import { planStatementBatch } from "./plan-statement-batch";
import { QuestionMarker } from "./question-marker";

const marker = new QuestionMarker("nl:");

describe("planStatementBatch", () => {
  it("answers the question in place between runs of ordinary statements, kept verbatim", async () => {
    expect(
      await planStatementBatch("select 1; select 'a;b' ; /* nl: how many customers */; select $$x;$$; -- end", marker),
    ).toEqual([
      { kind: "sql", text: "select 1; select 'a;b'" },
      { kind: "question", question: "how many customers" },
      { kind: "sql", text: "select $$x;$$" },
    ]);
  });

  it("plans several questions, and drops comment-only statements without the marker", async () => {
    expect(await planStatementBatch("/* nl: one */; /* just a note */; -- nl: two\n", marker)).toEqual([
      { kind: "question", question: "one" },
      { kind: "question", question: "two" },
    ]);
  });

  it("keeps SQL that merely mentions the marker as SQL", async () => {
    expect(await planStatementBatch("select '/* nl: not asked */'; /* nl: asked */", marker)).toEqual([
      { kind: "sql", text: "select '/* nl: not asked */'" },
      { kind: "question", question: "asked" },
    ]);
  });

  it("treats a -- marker beside ordinary SQL as a comment (the trailing-marker rule)", async () => {
    expect(await planStatementBatch("select 1; /* nl: asked */; -- nl: a note\n; select 2", marker)).toEqual([
      { kind: "sql", text: "select 1" },
      { kind: "question", question: "asked" },
      { kind: "sql", text: "select 2" },
    ]);
  });

  it("splits text with control characters libpg-query cannot report (form feed, vertical tab, others)", async () => {
    expect(await planStatementBatch("select 'a\fb\u0001'; /* nl: q\v */; -- \f\n", marker)).toEqual([
      { kind: "sql", text: "select 'a\fb\u0001'" },
      { kind: "question", question: "q" },
    ]);
  });

  it("refuses a malformed question or text that does not lex, before anything runs", async () => {
    await expect(planStatementBatch("select 1; /* nl: */", marker)).rejects.toThrow(/empty/);
    await expect(planStatementBatch("/* nl: q */; select 'open", marker)).rejects.toMatchObject({ code: "42601" });
  });
});
