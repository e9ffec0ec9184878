import { describe, expect, it } from "vitest";
import type { Catalog } from "../catalog/catalog-types";
import { ModelOutputError } from "../errors/model-errors";
import { UnanswerableQuestionError } from "../errors/question-errors";
import { catalogTable } from "../testing/catalog-table";
import { recordingStepContext } from "../testing/recording-step-context";
import type { GenerateCandidateOptions } from "./candidate-generator";
import { divideAndConquerGenerator } from "./divide-and-conquer-generator";
import { renderSchemaForSample } from "./sample-schema";

const catalog: Catalog = {
  tables: [
    catalogTable("public", "orders", ["order_id", "status", "ordered_at"]),
    catalogTable("public", "customers", ["customer_id", "city"]),
  ],
};
const question = "How many orders were cancelled in 2025?";

function options(context: GenerateCandidateOptions["context"], sample = 1): GenerateCandidateOptions {
  return {
    schema: renderSchemaForSample(catalog, sample),
    catalog,
    fullCatalog: catalog,
    context,
    examples: [{ question: "How many orders are there?", sql: "SELECT count(*) FROM orders" }],
    sample,
    temperature: 0.5,
  };
}

/** What a model answering the divide-and-conquer prompt returns: the working in reasoning, the final query fenced. */
const transcript = {
  reasoning:
    "**1. Divide and Conquer:**\n* **Main Question:** count cancelled orders in 2025\n* **Pseudo SQL:** SELECT count(*) FROM orders WHERE <cancelled in 2025>\n**2. Assembling SQL:** SELECT count(*) FROM orders WHERE status = 'cancelled' AND extract(year FROM ordered_at) = 2025\n**3. Simplification and Optimization:** use a range on ordered_at",
  sql: "**Final Optimized SQL Query:**\n```sql\nSELECT count(*) FROM orders WHERE status = 'cancelled' AND ordered_at >= '2025-01-01' AND ordered_at < '2026-01-01';\n```",
};

describe("divideAndConquerGenerator", () => {
  it("sends the divide-and-conquer prompt with this sample's schema, the question and the examples", async () => {
    const { context, calls } = recordingStepContext(question, () => JSON.stringify(transcript));
    const candidate = await divideAndConquerGenerator.generate(options(context, 3));
    expect(candidate.sql).toBe(
      "SELECT count(*) FROM orders WHERE status = 'cancelled' AND ordered_at >= '2025-01-01' AND ordered_at < '2026-01-01'",
    );
    expect(candidate.reasoning).toContain("Divide and Conquer");
    expect(calls).toHaveLength(1);
    expect(calls[0]?.step).toBe("generate-divide-and-conquer");
    expect(calls[0]?.sample).toBe(3);
    expect(calls[0]?.temperature).toBe(0.5);
    expect(calls[0]?.system).toMatch(/divide and conquer/);
    expect(calls[0]?.prompt).toContain(`Database Info\n${renderSchemaForSample(catalog, 3)}`);
    expect(calls[0]?.prompt).toContain(`**Question**: ${question}`);
    expect(calls[0]?.prompt).toContain("Question: How many orders are there?\nSQL:\nSELECT count(*) FROM orders");
  });

  it("reads a model that answers in free text instead of JSON, taking the final query", async () => {
    const freeText = `${transcript.reasoning}\n\n**Final Optimized SQL Query:**\n\`\`\`sql\nSELECT count(*) FROM orders WHERE status = 'cancelled'\n\`\`\`\nThis counts them.`;
    const { context } = recordingStepContext(question, () => freeText);
    const candidate = await divideAndConquerGenerator.generate(options(context));
    expect(candidate.sql).toBe("SELECT count(*) FROM orders WHERE status = 'cancelled'");
    expect(candidate.reasoning).toContain("Main Question");
  });

  it("throws ModelOutputError for free text without any query", async () => {
    const { context } = recordingStepContext(question, () => "I am not sure what you mean.");
    await expect(divideAndConquerGenerator.generate(options(context))).rejects.toThrow(ModelOutputError);
  });

  it("treats an empty final query as unanswerable", async () => {
    const { context } = recordingStepContext(question, () =>
      JSON.stringify({ reasoning: "There is no order table in this schema.", sql: "```sql\n```" }),
    );
    await expect(divideAndConquerGenerator.generate(options(context))).rejects.toThrow(UnanswerableQuestionError);
  });
});
