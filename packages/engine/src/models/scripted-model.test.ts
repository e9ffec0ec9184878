import { describe, expect, it } from "vitest";
import { findScriptedOutput, normalizeQuestion, type ScriptedFixture } from "./scripted-fixture";
import { createScriptedModel } from "./scripted-model";

const fixture = "packages/engine/src/models/fixtures/scripted-model-test.json";
const callOptions = (step: string, question: string) => ({
  prompt: [{ role: "user" as const, content: [{ type: "text" as const, text: "p" }] }],
  providerOptions: { nlq: { step, question } },
});

describe("createScriptedModel", () => {
  it("identifies itself as scripted", () => {
    const model = createScriptedModel(fixture);
    expect(model).toMatchObject({ specificationVersion: "v3", provider: "scripted", modelId: fixture });
  });

  it("streams the recorded output as one text part", async () => {
    const model = createScriptedModel(fixture);
    const { stream } = await model.doStream(callOptions("generate-candidate", "How many customers are there"));
    const parts: unknown[] = [];
    for await (const part of stream as unknown as AsyncIterable<unknown>) parts.push(part);
    expect(parts).toContainEqual({
      type: "text-delta",
      id: "0",
      delta: JSON.stringify({ reasoning: "count rows", sql: "SELECT count(*) FROM customers" }),
    });
    expect(parts.at(-1)).toMatchObject({ type: "finish", finishReason: { unified: "stop" } });
  });

  it("normalizes questions: case, whitespace and trailing punctuation", () => {
    expect(normalizeQuestion("  How MANY\n customers  are there?!. ")).toBe("how many customers are there");
  });

  it("replays the entry of the requested sample, then the entry without a sample, then the step's fallback", () => {
    const samples: ScriptedFixture = {
      description: "Scripted: no language model produced these.",
      responses: [
        { step: "generate-candidate", question: "q", sample: 1, output: "second" },
        { step: "generate-candidate", question: "q", output: "any" },
        { step: "generate-candidate", question: "*", sample: 2, output: "fallback third" },
        { step: "generate-candidate", question: "other", sample: 0, output: "first only" },
      ],
    };
    expect(findScriptedOutput(samples, "generate-candidate", "q", 1)).toEqual({ output: "second" });
    expect(findScriptedOutput(samples, "generate-candidate", "q", 0)).toEqual({ output: "any" });
    expect(findScriptedOutput(samples, "generate-candidate", "q", 2)).toEqual({ output: "any" });
    expect(findScriptedOutput(samples, "generate-candidate", "other", 2)).toEqual({ output: "fallback third" });
    expect(findScriptedOutput(samples, "generate-candidate", "other", 1)).toBeUndefined();
  });
});
