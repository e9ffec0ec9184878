import { describe, expect, it } from "vitest";
import { modelLabel } from "./model-label";

describe("modelLabel", () => {
  it("shortens a scripted fixture path to its file name", () => {
    expect(modelLabel("scripted:/work/main/fixtures/demo-model.json")).toBe("scripted:demo-model.json");
    expect(modelLabel("scripted:fixtures\\demo.json")).toBe("scripted:demo.json");
    expect(modelLabel("scripted:demo.json")).toBe("scripted:demo.json");
  });

  it("keeps provider model ids as configured", () => {
    expect(modelLabel("openai:gpt-4o-mini")).toBe("openai:gpt-4o-mini");
    expect(modelLabel("ollama:qwen2.5-coder:7b")).toBe("ollama:qwen2.5-coder:7b");
  });
});
