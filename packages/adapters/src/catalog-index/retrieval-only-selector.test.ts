import { loadSettings } from "@nlq/engine";
import { describe, expect, it } from "vitest";
import { valueRerankModel } from "./retrieval-only-selector";

describe("valueRerankModel", () => {
  it("reranks value hits only with a configured embedding model, never with the built-in offline embedder", () => {
    expect(valueRerankModel(loadSettings({}))).toBeUndefined();
    expect(valueRerankModel(loadSettings({ NLQ_EMBEDDING_MODEL: "builtin" }))).toBeUndefined();
    const configured = valueRerankModel(loadSettings({ NLQ_EMBEDDING_MODEL: "ollama:nomic-embed-text" }));
    expect(configured?.modelId).toBe("nomic-embed-text");
  });
});
