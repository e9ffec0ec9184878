import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { generateText } from "ai";
import { describe, expect, it } from "vitest";
import { loadSettings } from "../config/settings";
import { ModelConfigurationError } from "../errors/model-errors";
import { parseModelReference } from "./model-reference";
import { resolveModel, resolveStepModel } from "./resolve-model";

describe("parseModelReference", () => {
  it("keeps colons inside the model name", () => {
    expect(parseModelReference("ollama:qwen2.5-coder:7b")).toEqual({
      provider: "ollama",
      model: "qwen2.5-coder:7b",
      id: "ollama:qwen2.5-coder:7b",
    });
  });

  it("rejects unknown providers with setup instructions", () => {
    expect(() => parseModelReference("mystery:model")).toThrow(/NLQ_MODEL=openai:gpt-4o-mini/);
    expect(() => parseModelReference("openai:")).toThrow(ModelConfigurationError);
  });
});

describe("resolveModel", () => {
  const settings = loadSettings({});

  it("resolves each provider to an AI SDK model", () => {
    const cases: Array<[string, string]> = [
      ["openai:gpt-4o-mini", "gpt-4o-mini"],
      ["anthropic:claude-sonnet-4-5", "claude-sonnet-4-5"],
      ["google:gemini-2.5-flash", "gemini-2.5-flash"],
      ["ollama:qwen2.5-coder:7b", "qwen2.5-coder:7b"],
    ];
    for (const [reference, modelId] of cases) {
      const resolved = resolveModel(reference, settings);
      expect(resolved.scripted).toBe(false);
      expect(resolved.id).toBe(reference);
      expect(typeof resolved.model === "object" && resolved.model.modelId).toBe(modelId);
    }
  });

  it("needs NLQ_OPENAI_COMPATIBLE_URL for openai-compatible models", () => {
    expect(() => resolveModel("openai-compatible:my-model", settings)).toThrow(/NLQ_OPENAI_COMPATIBLE_URL/);
    const resolved = resolveModel("openai-compatible:my-model", { openAiCompatibleUrl: "http://localhost:9/v1" });
    expect(typeof resolved.model === "object" && resolved.model.provider).toContain("openai-compatible");
  });

  it("sends NLQ_OPENAI_COMPATIBLE_API_KEY to the OpenAI-compatible server", async () => {
    const authorizations: Array<string | undefined> = [];
    const server = createServer((request, response) => {
      authorizations.push(request.headers.authorization);
      response.writeHead(500, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: { message: "recorded" } }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const resolved = resolveModel("openai-compatible:my-model", {
        openAiCompatibleUrl: `http://127.0.0.1:${port}/v1`,
        openAiCompatibleApiKey: "secret-key",
      });
      await generateText({ model: resolved.model, prompt: "hello", maxRetries: 0 }).catch(() => undefined);
      expect(authorizations).toEqual(["Bearer secret-key"]);
    } finally {
      server.close();
    }
  });

  it("resolves scripted fixtures relative to the current directory and marks them scripted", () => {
    const resolved = resolveModel("scripted:packages/engine/src/models/fixtures/scripted-model-test.json", settings);
    expect(resolved.scripted).toBe(true);
    expect(() => resolveModel("scripted:does/not/exist.json", settings)).toThrow(/cannot read scripted model fixture/);
  });

  it("explains how to configure a model when none is", () => {
    expect(() => resolveStepModel(settings, "generate-candidate")).toThrow(ModelConfigurationError);
    expect(() => resolveStepModel(settings, "generate-candidate")).toThrow(
      /NLQ_MODEL=openai:gpt-4o-mini with OPENAI_API_KEY[\s\S]*NLQ_MODEL=scripted:fixtures\/demo-model.json/,
    );
  });
});
