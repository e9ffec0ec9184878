import { describe, expect, it } from "vitest";
import { ModelConfigurationError } from "../errors/model-errors";
import { OfflineEmbeddingModel } from "./offline-embedding-model";
import { resolveEmbeddingModel } from "./resolve-embedding-model";

describe("resolveEmbeddingModel", () => {
  it("defaults to the offline embedder", () => {
    expect(resolveEmbeddingModel(undefined, {})).toBeInstanceOf(OfflineEmbeddingModel);
    expect(resolveEmbeddingModel("", {})).toBeInstanceOf(OfflineEmbeddingModel);
    expect(resolveEmbeddingModel("builtin", {})).toBeInstanceOf(OfflineEmbeddingModel);
  });

  it("resolves provider references without calling them", () => {
    const openai = resolveEmbeddingModel("openai:text-embedding-3-small", {});
    expect(openai.modelId).toBe("text-embedding-3-small");
    expect(openai.provider).toContain("openai");
    const google = resolveEmbeddingModel("google:text-embedding-004", {});
    expect(google.modelId).toBe("text-embedding-004");
    const ollama = resolveEmbeddingModel("ollama:nomic-embed-text:latest", {});
    expect(ollama.modelId).toBe("nomic-embed-text:latest");
    expect(ollama.provider).toContain("ollama");
    const compatible = resolveEmbeddingModel("openai-compatible:bge-small", {
      openAiCompatibleUrl: "http://127.0.0.1:9/v1",
    });
    expect(compatible.modelId).toBe("bge-small");
  });

  it("rejects malformed references, unknown providers and missing URLs", () => {
    expect(() => resolveEmbeddingModel("nonsense", {})).toThrow(ModelConfigurationError);
    expect(() => resolveEmbeddingModel("acme:model", {})).toThrow(/unknown embedding provider/);
    expect(() => resolveEmbeddingModel("openai-compatible:x", {})).toThrow(/NLQ_OPENAI_COMPATIBLE_URL/);
  });
});
