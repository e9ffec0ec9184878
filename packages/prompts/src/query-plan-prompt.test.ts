import { describe, expect, it } from "vitest";
import { queryPlanPrompt } from "./query-plan-prompt";

const schema =
  "CREATE TABLE customers (\n  customer_id integer NOT NULL,\n  city text -- examples: 'Berlin', 'berlin '\n);";

describe("queryPlanPrompt", () => {
  const prompt = queryPlanPrompt({
    schema,
    question: "Which customers are from Berlin?",
    examples: [{ question: "How many customers are there?", sql: "SELECT count(*) FROM customers" }],
    previousTurns: [{ question: "How many customers live in Paris?" }],
  });

  it("matches its snapshot", async () => {
    await expect(prompt).toMatchFileSnapshot("./__snapshots__/query-plan-prompt.txt");
  });

  it("asks for the three steps of a query plan and keeps the paper's demonstration in PostgreSQL", () => {
    expect(prompt).toContain("**Find and open the relevant tables:**");
    expect(prompt).toContain("**Perform the operations:**");
    expect(prompt).toContain("**Deliver the final output:**");
    expect(prompt).toContain("** Matching Restaurants:**");
    expect(prompt).toContain(
      "SELECT count(t1.id_restaurant) FROM generalinfo AS t1 INNER JOIN location AS t2 ON t1.id_restaurant = t2.id_restaurant",
    );
    expect(prompt).not.toMatch(/sqlite/i);
  });

  it("puts the real schema, verified examples, earlier turns and the question after the demonstration", () => {
    const realTask = prompt.slice(prompt.indexOf("Now the real task."));
    expect(realTask).toContain(schema);
    expect(realTask).toContain(
      "Example 1)\nQuestion: How many customers are there?\nSQL:\nSELECT count(*) FROM customers",
    );
    expect(realTask).toContain("1. How many customers live in Paris?\n\n");
    expect(realTask).toContain("**Question**: Which customers are from Berlin?\n**Hint**: (none)");
    expect(prompt).toContain("Integer division truncates in PostgreSQL");
  });
});
