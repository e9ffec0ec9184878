import { describe, expect, it } from "vitest";
import type { Catalog } from "../catalog/catalog-types";
import { UnanswerableQuestionError } from "../errors/question-errors";
import { renderSchema } from "../schema/render-schema";
import { catalogTable } from "../testing/catalog-table";
import { type RecordedCall, recordingStepContext } from "../testing/recording-step-context";
import type { GenerateCandidateOptions } from "./candidate-generator";
import { renderSchemaForSample } from "./sample-schema";
import { createSyntheticExamplesGenerator, syntheticExamplesGenerator } from "./synthetic-examples-generator";

const customers = catalogTable("public", "customers", ["customer_id", "city"], { primaryKey: ["customer_id"] });
const orders = catalogTable("public", "orders", ["order_id", "customer_id", "status"], { primaryKey: ["order_id"] });
const stores = catalogTable("public", "stores", ["store_id", "name"]);
const fullCatalog: Catalog = { tables: [customers, orders, stores] };
const selected: Catalog = { tables: [orders] };
const question = "How many orders were cancelled?";

function options(context: GenerateCandidateOptions["context"], sample = 0): GenerateCandidateOptions {
  return {
    schema: renderSchemaForSample(selected, sample),
    catalog: selected,
    fullCatalog,
    context,
    examples: [{ question: "How many stores are there?", sql: "SELECT count(*) FROM stores" }],
    sample,
    temperature: 0.8,
  };
}

const synthesized = {
  examples: [
    { question: "How many customers live in Berlin?", sql: "SELECT count(*) FROM customers WHERE city = 'Berlin';" },
    { question: "List the shipped orders", sql: "```sql\nSELECT order_id FROM orders WHERE status = 'shipped'\n```" },
    { question: "Duplicate", sql: "select order_id   from orders where status = 'shipped'" },
    { question: "Broken", sql: "SELEC order_id FROM" },
    { question: "A write", sql: "DELETE FROM orders" },
    { question: "Empty", sql: "" },
    { question: "Orders per customer", sql: "SELECT customer_id, count(*) FROM orders GROUP BY customer_id" },
  ],
};

function answer(call: RecordedCall): string {
  if (call.step === "synthesize-examples") return JSON.stringify(synthesized);
  return JSON.stringify({
    reasoning: "like the shipped example",
    sql: "SELECT count(*) FROM orders WHERE status = 'cancelled';",
  });
}

describe("syntheticExamplesGenerator", () => {
  it("synthesises examples over the whole and the selected schema, then writes the SQL with them and the verified examples", async () => {
    const { context, calls } = recordingStepContext(question, answer);
    const candidate = await syntheticExamplesGenerator.generate(options(context));
    expect(candidate).toEqual({
      sql: "SELECT count(*) FROM orders WHERE status = 'cancelled'",
      reasoning: "like the shipped example",
    });
    expect(calls.map((call) => [call.step, call.sample, call.temperature])).toEqual([
      ["synthesize-examples", 0, 0.8],
      ["generate-from-examples", 0, 0.8],
    ]);
    const [synthesis, generation] = calls;
    expect(synthesis?.prompt).toContain(
      `###Table creation statements of the whole database###\n${renderSchema(fullCatalog)}`,
    );
    expect(synthesis?.prompt).toContain(
      `###Table creation statements of the selected tables and columns###\n${renderSchema(selected)}`,
    );
    expect(synthesis?.prompt).toContain("Part 1: 12 examples");
    expect(synthesis?.prompt).toContain("Part 2: 8 examples");
    expect(synthesis?.prompt).toContain("Question: How many stores are there?");
    expect(synthesis?.prompt).not.toContain(question);

    expect(generation?.prompt).toContain(`Database Schema:\n${renderSchema(selected)}`);
    expect(generation?.prompt).toContain(`Question:\n${question}`);
    // Cleaned synthetic examples: fences and semicolons removed; duplicates, unparsable, writing and empty ones dropped.
    expect(generation?.prompt).toContain(
      "Example 1)\nQuestion: How many customers live in Berlin?\nSQL:\nSELECT count(*) FROM customers WHERE city = 'Berlin'\n\nExample 2)\nQuestion: List the shipped orders\nSQL:\nSELECT order_id FROM orders WHERE status = 'shipped'\n\nExample 3)\nQuestion: Orders per customer\nSQL:\nSELECT customer_id, count(*) FROM orders GROUP BY customer_id\n\n",
    );
    for (const dropped of ["Duplicate", "Broken", "A write", "Question: Empty"])
      expect(generation?.prompt).not.toContain(dropped);
    expect(generation?.prompt).toContain("Verified examples on this database");
    expect(generation?.prompt).toContain("SQL:\nSELECT count(*) FROM stores");
  });

  it("shows each sample its own order of the whole schema and keeps at most n_f + n_t examples", async () => {
    const { context, calls } = recordingStepContext(question, answer);
    const generator = createSyntheticExamplesGenerator({ featureExamples: 1, schemaExamples: 1 });
    await generator.generate(options(context, 4));
    expect(calls[0]?.prompt).toContain(renderSchemaForSample(fullCatalog, 4));
    expect(calls[0]?.prompt).toContain("create 2 examples");
    expect(calls[1]?.prompt).toContain("Example 2)");
    expect(calls[1]?.prompt).not.toContain("Example 3)");
  });

  it("caps the whole schema at maxWholeSchemaTables, selected tables first", async () => {
    const { context, calls } = recordingStepContext(question, answer);
    await createSyntheticExamplesGenerator({ maxWholeSchemaTables: 1 }).generate(options(context));
    const whole = calls[0]?.prompt
      .split("###Table creation statements of the whole database###\n")[1]
      ?.split("\n\nPart 2")[0];
    expect(whole).toBe(renderSchema({ tables: [orders] }));
  });

  it("writes the SQL without synthetic examples when none is usable, and reports an empty sql as unanswerable", async () => {
    const { context, calls } = recordingStepContext(question, (call) =>
      call.step === "synthesize-examples"
        ? JSON.stringify({ examples: [{ question: "bad", sql: "not sql" }] })
        : JSON.stringify({ reasoning: "nothing about cancellations", sql: "" }),
    );
    await expect(syntheticExamplesGenerator.generate(options(context))).rejects.toThrow(UnanswerableQuestionError);
    expect(calls[1]?.prompt).not.toContain("Example 1)\nQuestion: bad");
  });
});
