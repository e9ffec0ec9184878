import { describe, expect, it } from "vitest";
import type { Catalog } from "../catalog/catalog-types";
import { UnanswerableQuestionError } from "../errors/question-errors";
import { catalogTable } from "../testing/catalog-table";
import { recordingStepContext } from "../testing/recording-step-context";
import type { GenerateCandidateOptions } from "./candidate-generator";
import { queryPlanGenerator } from "./query-plan-generator";
import { renderSchemaForSample } from "./sample-schema";

const catalog: Catalog = { tables: [catalogTable("public", "customers", ["customer_id", "city", "country"])] };
const question = "How many customers live in Berlin?";

function options(context: GenerateCandidateOptions["context"]): GenerateCandidateOptions {
  return {
    schema: renderSchemaForSample(catalog, 0),
    catalog,
    fullCatalog: catalog,
    context,
    examples: [{ question: "Which countries do customers come from?", sql: "SELECT DISTINCT country FROM customers" }],
    previousTurns: [{ question: "How many customers are there?", sql: "SELECT count(*) FROM customers" }],
    sample: 0,
    temperature: 0,
  };
}

describe("queryPlanGenerator", () => {
  it("sends the query-plan prompt with the schema, question, examples and turns, and parses the final query", async () => {
    const { context, calls } = recordingStepContext(question, () =>
      JSON.stringify({
        reasoning:
          "** Preparation Steps:** open customers. ** Matching:** keep rows whose city is Berlin. ** Delivering the Result:** the count.",
        sql: "Following the plan:\nSELECT count(*) FROM customers WHERE city = 'Berlin';\nThat is the count.",
      }),
    );
    const candidate = await queryPlanGenerator.generate(options(context));
    expect(candidate.sql).toBe("SELECT count(*) FROM customers WHERE city = 'Berlin'");
    expect(calls.map((call) => [call.step, call.sample, call.temperature])).toEqual([["generate-query-plan", 0, 0]]);
    expect(calls[0]?.prompt).toContain("**Find and open the relevant tables:**");
    expect(calls[0]?.prompt).toContain(`Database Info\n${renderSchemaForSample(catalog, 0)}`);
    expect(calls[0]?.prompt).toContain(`**Question**: ${question}`);
    expect(calls[0]?.prompt).toContain("SQL:\nSELECT DISTINCT country FROM customers");
    expect(calls[0]?.prompt).toContain("1. How many customers are there?\n   SQL: SELECT count(*) FROM customers");
  });

  it("treats an empty sql as unanswerable, keeping the model's reasoning", async () => {
    const { context } = recordingStepContext(question, () =>
      JSON.stringify({ reasoning: "customers have no address data", sql: "" }),
    );
    await expect(queryPlanGenerator.generate(options(context))).rejects.toThrow(
      new UnanswerableQuestionError("cannot answer from this database: customers have no address data", { question }),
    );
  });
});
