import { describe, expect, it } from "vitest";
import { synthesizedExamplesOutputSchema, synthesizeExamplesPrompt } from "./synthesize-examples-prompt";

const wholeSchema =
  "CREATE TABLE customers (\n  customer_id integer NOT NULL\n);\n\nCREATE TABLE orders (\n  order_id integer NOT NULL,\n  customer_id integer\n);";
const selectedSchema = "CREATE TABLE orders (\n  order_id integer NOT NULL\n);";

describe("synthesizeExamplesPrompt", () => {
  const prompt = synthesizeExamplesPrompt({
    wholeSchema,
    selectedSchema,
    featureExamples: 6,
    schemaExamples: 4,
    examples: [{ question: "How many orders are there?", sql: "SELECT count(*) FROM orders" }],
  });

  it("matches its snapshot", async () => {
    await expect(prompt).toMatchFileSnapshot("./__snapshots__/synthesize-examples-prompt.txt");
  });

  it("asks for n_f examples over the whole schema by SQL feature and n_t over the selected columns", () => {
    expect(prompt).toContain("create 10 examples");
    expect(prompt).toContain("Part 1: 6 examples over the whole database");
    expect(prompt).toContain(`###Table creation statements of the whole database###\n${wholeSchema}`);
    expect(prompt).toContain("Part 2: 4 examples that use the following tables and columns");
    expect(prompt).toContain(`###Table creation statements of the selected tables and columns###\n${selectedSchema}`);
    for (const feature of [
      "JOIN",
      "GROUP BY",
      "ORDER BY and LIMIT",
      "subqueries",
      "CASE",
      "UNION",
      "window functions",
    ]) {
      expect(prompt).toContain(feature);
    }
    expect(prompt).toContain("Integer division truncates in PostgreSQL");
    expect(prompt).not.toMatch(/sqlite/i);
  });

  it("shows the verified examples as what users ask, and omits the section without them", () => {
    expect(prompt).toContain("Questions already answered on this database");
    expect(prompt).toContain("Question: How many orders are there?");
    const bare = synthesizeExamplesPrompt({ wholeSchema, selectedSchema, featureExamples: 1, schemaExamples: 1 });
    expect(bare).not.toContain("Questions already answered");
  });

  it("shows the schema once when the selected tables are the whole database", () => {
    const once = synthesizeExamplesPrompt({ wholeSchema, featureExamples: 2, schemaExamples: 1 });
    expect(once.split(wholeSchema.trim()).length - 1).toBe(1);
    expect(once).not.toContain("selected tables and columns###");
    expect(once).toContain("Part 2: 1 examples over the same tables and columns");
  });

  it("does not show the user's question (Algorithm 2 synthesises from the schema only)", () => {
    expect(prompt).not.toContain("Hint:\n");
  });

  it("has an output schema with a list of question and SQL pairs", () => {
    expect(
      synthesizedExamplesOutputSchema.parse({ examples: [{ question: "q", sql: "SELECT 1" }] }).examples,
    ).toHaveLength(1);
    expect(synthesizedExamplesOutputSchema.safeParse({ examples: [{ question: "q" }] }).success).toBe(false);
  });
});
