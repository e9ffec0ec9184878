import { embed, embedMany } from "ai";
import { describe, expect, it } from "vitest";
import { createOfflineEmbeddingModel, termWeightsFromTexts } from "./offline-embedding-model";
import { cosineSimilarity, dot } from "./vector-math";
import { splitWordPieces, stemWord } from "./word-pieces";

describe("word pieces", () => {
  it("splits identifiers on underscores, camelCase, digits and punctuation", () => {
    expect(splitWordPieces("customerID")).toEqual(["customer", "id"]);
    expect(splitWordPieces("first_name")).toEqual(["first", "name"]);
    expect(splitWordPieces("HTMLParser2Output")).toEqual(["html", "parser", "2", "output"]);
    expect(splitWordPieces("frpm count (k-12)")).toEqual(["frpm", "count", "k", "12"]);
  });
  it("stems plurals and inflections lightly", () => {
    expect(stemWord("orders")).toBe("order");
    expect(stemWord("ordered")).toBe("order");
    expect(stemWord("ordering")).toBe("order");
    expect(stemWord("countries")).toBe("country");
    expect(stemWord("status")).toBe("status");
    expect(stemWord("gas")).toBe("gas");
  });
});

describe("offline embedding model", () => {
  const model = createOfflineEmbeddingModel();

  it("is accepted by the AI SDK's embed and embedMany", async () => {
    const single = await embed({ model, value: "customer segment" });
    expect(single.embedding).toHaveLength(2048);
    const many = await embedMany({ model, values: ["a", "customer_id", "CustomerId"] });
    expect(many.embeddings).toHaveLength(3);
    expect(many.embeddings[1]).toEqual(many.embeddings[2]);
  });

  it("returns deterministic unit vectors of the configured dimension", () => {
    const small = createOfflineEmbeddingModel({ dimensions: 64 });
    const vector = small.embedText("gas stations in the Czech Republic");
    expect(vector).toHaveLength(64);
    expect(dot(vector, vector)).toBeCloseTo(1, 10);
    expect(small.embedText("gas stations in the Czech Republic")).toEqual(vector);
    expect(small.embedText("the of what")).toEqual(new Array(64).fill(0));
  });

  it("ranks related identifiers above unrelated ones", () => {
    const question = model.embedText("Which customers paid in euros?");
    const currency = model.embedText("customers.currency");
    const customer = model.embedText("customers.customerid");
    const unrelated = model.embedText("races.circuitid");
    expect(cosineSimilarity(question, customer)).toBeGreaterThan(cosineSimilarity(question, unrelated));
    expect(cosineSimilarity(model.embedText("zip code"), model.embedText("schools.zip"))).toBeGreaterThan(
      cosineSimilarity(model.embedText("zip code"), model.embedText("schools.phone")),
    );
    expect(cosineSimilarity(currency, customer)).toBeGreaterThan(0);
  });

  it("character n-grams relate inflected and abbreviated forms", () => {
    const similarity = cosineSimilarity(model.embedText("transaction"), model.embedText("transactions_1k"));
    expect(similarity).toBeGreaterThan(0.5);
    expect(cosineSimilarity(model.embedText("nationality"), model.embedText("nation"))).toBeGreaterThan(0.1);
  });

  it("inverse document frequency weights make frequent terms count less", () => {
    const weights = termWeightsFromTexts(["a.id", "b.id", "c.id", "c.name"]);
    expect(weights.get("id")).toBeLessThan(weights.get("name")!);
    const weighted = createOfflineEmbeddingModel({ termWeights: weights });
    const probe = weighted.embedText("name id");
    expect(cosineSimilarity(probe, weighted.embedText("name"))).toBeGreaterThan(
      cosineSimilarity(probe, weighted.embedText("id")),
    );
  });

  it("honours an aborted signal", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(model.doEmbed({ values: ["x"], abortSignal: controller.signal })).rejects.toThrow();
  });
});
