import { describe, expect, it } from "vitest";
import { divideAndConquerPrompt } from "./divide-and-conquer-prompt";

const schema =
  "CREATE TABLE orders (\n  order_id integer NOT NULL,\n  status text -- examples: 'cancelled', 'shipped'\n);";

describe("divideAndConquerPrompt", () => {
  const prompt = divideAndConquerPrompt({
    schema,
    question: "How many orders were cancelled in 2025?",
    hint: "cancelled means status = 'cancelled'",
    examples: [{ question: "How many orders are there?", sql: "SELECT count(*) FROM orders" }],
    previousTurns: [
      { question: "How many orders were shipped?", sql: "SELECT count(*)\nFROM orders WHERE status = 'shipped'" },
    ],
  });

  it("matches its snapshot", async () => {
    await expect(prompt).toMatchFileSnapshot("./__snapshots__/divide-and-conquer-prompt.txt");
  });

  it("describes the divide, conquer, combine and optimise steps and keeps the paper's demonstration in PostgreSQL", () => {
    expect(prompt).toContain("recursive divide-and-conquer approach");
    expect(prompt).toContain("1. **Divide (Decompose Sub-question with Pseudo SQL):**");
    expect(prompt).toContain("3. **Combine (Reassemble):**");
    expect(prompt).toContain("**3. Simplification and Optimization:**");
    expect(prompt).toContain("ORDER BY t2.a11 ASC, t1.birth_date DESC NULLS LAST LIMIT 1");
    expect(prompt).not.toMatch(/sqlite/i);
  });

  it("states the PostgreSQL rules", () => {
    expect(prompt).toContain("Integer division truncates in PostgreSQL");
    expect(prompt).toContain("NULLS LAST");
    expect(prompt).toContain("Quote identifiers with double quotes");
    expect(prompt).toContain("exactly one read-only SELECT");
  });

  it("puts the real schema, the verified examples, earlier turns, the question and hint after the demonstration", () => {
    const realTask = prompt.slice(prompt.indexOf("Now the real task."));
    expect(realTask).toContain(schema);
    expect(realTask).toContain("Verified examples on this database");
    expect(realTask).toContain("Example 1)\nQuestion: How many orders are there?\nSQL:\nSELECT count(*) FROM orders");
    expect(realTask).toContain(
      "1. How many orders were shipped?\n   SQL: SELECT count(*) FROM orders WHERE status = 'shipped'",
    );
    expect(realTask).toContain(
      "**Question**: How many orders were cancelled in 2025?\n**Hint**: cancelled means status = 'cancelled'",
    );
    expect(realTask).toContain('"sql": "The final optimized PostgreSQL query in a single string."');
  });

  it("omits the examples and turns sections when there are none, and says (none) for no hint", () => {
    const bare = divideAndConquerPrompt({ schema, question: "Q" });
    expect(bare).not.toContain("Verified examples");
    expect(bare).not.toContain("Earlier questions");
    expect(bare).toContain("**Hint**: (none)");
  });
});
