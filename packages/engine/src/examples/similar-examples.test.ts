import { describe, expect, it } from "vitest";
import { questionSimilarity, questionWords, similarExamples } from "./similar-examples";

describe("similarExamples", () => {
  const examples = [
    { question: "how many customers are there?", sql: "SELECT count(*) FROM customers" },
    { question: "what is the revenue per month?", sql: "SELECT 1" },
    { question: "which customers are from Berlin?", sql: "SELECT 2" },
  ];
  it("folds case, plurals and stop words", () => {
    expect([...questionWords("How many Customers are there?")]).toEqual(["customer"]);
    expect(questionSimilarity("How many customers?", "how many customers are there")).toBe(1);
    expect(questionSimilarity("", "x")).toBe(0);
  });
  it("returns the similar pairs best first and nothing unrelated", () => {
    expect(similarExamples("count the customers", examples).map((example) => example.sql)).toEqual([
      "SELECT count(*) FROM customers",
      "SELECT 2",
    ]);
    expect(similarExamples("monthly revenue per month", examples).map((example) => example.sql)).toEqual(["SELECT 1"]);
    expect(similarExamples("bounce rate of the website", examples)).toEqual([]);
  });
});
