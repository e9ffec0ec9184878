import { describe, expect, it } from "vitest";
import { generateFromExamplesPrompt } from "./generate-from-examples-prompt";

const schema = "CREATE TABLE products (\n  product_id integer NOT NULL,\n  price numeric(10,2)\n);";

describe("generateFromExamplesPrompt", () => {
  const prompt = generateFromExamplesPrompt({
    schema,
    question: "What is the most expensive product?",
    hint: "price is in US dollars",
    syntheticExamples: [
      { question: "How many products are there?", sql: "SELECT count(*) FROM products" },
      { question: "What is the average price?", sql: "SELECT avg(price) FROM products" },
    ],
    examples: [
      { question: "Which product is the cheapest?", sql: "SELECT product_id FROM products ORDER BY price LIMIT 1" },
    ],
    previousTurns: [{ question: "List the products", sql: "SELECT * FROM products" }],
  });

  it("matches its snapshot", async () => {
    await expect(prompt).toMatchFileSnapshot("./__snapshots__/generate-from-examples-prompt.txt");
  });

  it("shows the synthetic examples, then the verified ones, before the schema and question", () => {
    const synthetic = prompt.indexOf("Example 1)\nQuestion: How many products are there?");
    const second = prompt.indexOf("Example 2)\nQuestion: What is the average price?");
    const verified = prompt.indexOf("Verified examples on this database");
    const schemaAt = prompt.indexOf(`Database Schema:\n${schema}`);
    const turns = prompt.indexOf("1. List the products\n   SQL: SELECT * FROM products");
    const question = prompt.indexOf("Question:\nWhat is the most expensive product?\n\nHint:\nprice is in US dollars");
    for (const position of [synthetic, second, verified, schemaAt, turns, question])
      expect(position).toBeGreaterThan(-1);
    expect(synthetic).toBeLessThan(second);
    expect(second).toBeLessThan(verified);
    expect(verified).toBeLessThan(schemaAt);
    expect(schemaAt).toBeLessThan(turns);
    expect(turns).toBeLessThan(question);
    expect(prompt).toContain("Integer division truncates in PostgreSQL");
    expect(prompt).toContain('"sql": "Your final PostgreSQL query in a single string."');
  });

  it("omits the example sections when there are none", () => {
    const bare = generateFromExamplesPrompt({ schema, question: "Q", syntheticExamples: [] });
    expect(bare).not.toContain("Example 1)");
    expect(bare).not.toContain("Verified examples");
    expect(bare).toContain("Hint:\n(none)");
  });
});
