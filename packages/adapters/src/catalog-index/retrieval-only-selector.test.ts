import { loadSettings, WordVectorEmbeddingModel } from "@nlq/engine";
import { describe, expect, it } from "vitest";
import { valueRerankModel } from "./retrieval-only-selector";

describe("valueRerankModel", () => {
  it("reranks value hits with the pipeline's embedder (the trained one by default), never the lexical one", () => {
    expect(valueRerankModel(loadSettings({}))).toBeInstanceOf(WordVectorEmbeddingModel);
    expect(valueRerankModel(loadSettings({ NLQ_EMBEDDING_MODEL: "builtin" }))).toBeInstanceOf(WordVectorEmbeddingModel);
    expect(valueRerankModel(loadSettings({ NLQ_EMBEDDING_MODEL: "builtin:lexical" }))).toBeUndefined();
    const configured = valueRerankModel(loadSettings({ NLQ_EMBEDDING_MODEL: "ollama:nomic-embed-text" }));
    expect(configured?.modelId).toBe("nomic-embed-text");
  });
});
