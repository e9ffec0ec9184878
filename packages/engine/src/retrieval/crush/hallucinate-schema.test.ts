import type { LanguageModel } from "ai";
import { describe, expect, it } from "vitest";
import { loadSettings } from "../../config/settings";
import { ModelOutputError } from "../../errors/model-errors";
import { createStepContext } from "../../llm/step-context";
import { mockTextModel } from "../../testing/mock-text-model";
import { createCatalogEmbeddingModel } from "./catalog-embedding-model";
import { hallucinateSchema } from "./hallucinate-schema";
import { type SchemaColumn, schemaColumnKey } from "./schema-column";
import { createSchemaRetriever } from "./schema-retriever";

const mockModel = (text: string) => mockTextModel(text, { input: 200, output: 20 });

/** The question's context with `model` answering every step as `mock:model`. */
function contextFor(question: string, model: LanguageModel) {
  return createStepContext({
    question,
    settings: loadSettings({}),
    resolveModel: () => ({ model, id: "mock:model", scripted: false }),
  });
}

describe("hallucinateSchema (mock model, not a real one)", () => {
  it("parses the model's tables into probes that drive CRUSH", async () => {
    const model = mockModel(JSON.stringify({ tables: ["Posts(post_id, title, owner_id)", "Users(user_id, name)"] }));
    const result = await hallucinateSchema(contextFor("Titles of posts by csgillespie?", model));
    expect(result.elements).toHaveLength(5);
    expect(result.call).toMatchObject({ step: "hallucinate-schema", model: "mock:model", inputTokens: 200 });
    const prompt = JSON.stringify(model.doGenerateCalls[0]?.prompt);
    expect(prompt).toContain("Hallucinate a minimal schema");
    expect(prompt).toContain("Titles of posts by csgillespie?");

    const columns: SchemaColumn[] = [
      { database: "forum", table: "posts", column: "id" },
      { database: "forum", table: "posts", column: "title" },
      { database: "forum", table: "posts", column: "owneruserid" },
      { database: "forum", table: "users", column: "id" },
      { database: "forum", table: "users", column: "displayname" },
      { database: "f1", table: "races", column: "name" },
    ];
    const retriever = await createSchemaRetriever({ columns, embeddingModel: createCatalogEmbeddingModel(columns) });
    const picked = await retriever.retrieveCollectively({
      question: "Titles of posts by csgillespie?",
      hallucinated: result.tables,
      budget: 5,
    });
    expect(picked.map(schemaColumnKey)).not.toContain("f1.races.name");
  });

  it("rejects output that is not a list of strings", async () => {
    const model = mockModel(JSON.stringify({ tables: [{ name: "Posts" }] }));
    await expect(hallucinateSchema(contextFor("q", model))).rejects.toBeInstanceOf(ModelOutputError);
  });

  it("reads text that is not Table(col, …) as a table name (the shape is not a schema pattern)", async () => {
    const model = mockModel(JSON.stringify({ tables: ["no parentheses here"] }));
    const hallucinated = await hallucinateSchema(contextFor("q", model));
    expect(hallucinated.elements).toEqual([{ table: "no parentheses here", column: "" }]);
  });
});
