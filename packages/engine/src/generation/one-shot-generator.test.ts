import { describe, expect, it } from "vitest";
import type { Catalog } from "../catalog/catalog-types";
import { UnanswerableQuestionError } from "../errors/question-errors";
import { renderSchema } from "../schema/render-schema";
import { catalogTable } from "../testing/catalog-table";
import { recordingStepContext } from "../testing/recording-step-context";
import type { GenerateCandidateOptions } from "./candidate-generator";
import { oneShotGenerator } from "./one-shot-generator";

const catalog: Catalog = { tables: [catalogTable("public", "customers", ["customer_id", "city"])] };
const question = "Which customers are from Berlin?";

function options(context: GenerateCandidateOptions["context"]): GenerateCandidateOptions {
  return {
    schema: renderSchema(catalog),
    catalog,
    fullCatalog: catalog,
    context,
    examples: [{ question: "How many customers are there?", sql: "SELECT count(*) FROM customers" }],
    previousTurns: [
      { question: "Which customers are from Paris?", sql: "SELECT * FROM customers WHERE city = 'Paris'" },
    ],
    sample: 2,
    temperature: 0.7,
  };
}

describe("oneShotGenerator", () => {
  it("sends the schema, question, hint, verified examples and earlier turns, with the sample and its temperature", async () => {
    const { context, calls } = recordingStepContext(
      question,
      () =>
        JSON.stringify({
          reasoning: "filter on city",
          sql: "```sql\nSELECT customer_id FROM customers WHERE city = 'Berlin';\n```",
        }),
      { hint: "city holds the city name" },
    );
    const candidate = await oneShotGenerator.generate(options(context));
    expect(candidate).toEqual({
      sql: "SELECT customer_id FROM customers WHERE city = 'Berlin'",
      reasoning: "filter on city",
    });
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call?.step).toBe("generate-candidate");
    expect(call?.sample).toBe(2);
    expect(call?.temperature).toBe(0.7);
    expect(call?.prompt).toContain("CREATE TABLE customers (\n  customer_id text,\n  city text\n);");
    expect(call?.prompt).toContain(`Question:\n${question}`);
    expect(call?.prompt).toContain("Hint:\ncity holds the city name");
    expect(call?.prompt).toContain("Question: How many customers are there?\nSQL:\nSELECT count(*) FROM customers");
    expect(call?.prompt).toContain("1. Which customers are from Paris?");
  });

  it("throws UnanswerableQuestionError with the model's reasoning for an empty sql", async () => {
    const { context } = recordingStepContext(question, () => JSON.stringify({ reasoning: "no city data", sql: "" }));
    await expect(oneShotGenerator.generate(options(context))).rejects.toThrow(UnanswerableQuestionError);
    await expect(oneShotGenerator.generate(options(context))).rejects.toThrow(/no city data/);
  });
});
