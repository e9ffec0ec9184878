import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
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

  it("answers with an entry whose promptContains holds before the unconditioned one, and never with a failing one", () => {
    const conditional: ScriptedFixture = {
      description: "Scripted: no language model produced these.",
      responses: [
        { step: "generate-candidate", question: "q", output: "without" },
        { step: "generate-candidate", question: "q", promptContains: "SQL:\nSELECT 42", output: "with" },
        { step: "generate-candidate", question: "only if", promptContains: "needle", output: "found" },
        { step: "generate-candidate", question: "*", output: "fallback" },
      ],
    };
    expect(findScriptedOutput(conditional, "generate-candidate", "q", 0, "Example 1)\nSQL:\nSELECT 42")).toEqual({
      output: "with",
    });
    expect(findScriptedOutput(conditional, "generate-candidate", "q", 0, "SQL:\nSELECT 4")).toEqual({
      output: "without",
    });
    expect(findScriptedOutput(conditional, "generate-candidate", "q")).toEqual({ output: "without" });
    expect(findScriptedOutput(conditional, "generate-candidate", "only if", 0, "a needle here")).toEqual({
      output: "found",
    });
    expect(findScriptedOutput(conditional, "generate-candidate", "only if", 0, "nothing")).toEqual({
      output: "fallback",
    });
  });

  it("reads the condition from the fixture file and matches it against the call's prompt text", async () => {
    const directory = mkdtempSync(path.join(tmpdir(), "nlq-scripted-"));
    try {
      const file = path.join(directory, "conditional.json");
      writeFileSync(
        file,
        JSON.stringify({
          description: "Scripted: no language model produced these.",
          responses: [
            { step: "generate-candidate", question: "q", output: { reasoning: "plain", sql: "SELECT 1" } },
            {
              step: "generate-candidate",
              question: "q",
              promptContains: "Verified example",
              output: { reasoning: "taught", sql: "SELECT 2" },
            },
          ],
        }),
      );
      const model = createScriptedModel(file);
      const answer = async (text: string) => {
        const result = await model.doGenerate({
          prompt: [
            { role: "system", content: "You write SQL." },
            { role: "user", content: [{ type: "text", text }] },
          ],
          providerOptions: { nlq: { step: "generate-candidate", question: "q" } },
        });
        return result.content[0]?.type === "text" ? JSON.parse(result.content[0].text).sql : undefined;
      };
      expect(await answer("Verified examples on this database: …")).toBe("SELECT 2");
      expect(await answer("no examples")).toBe("SELECT 1");
      writeFileSync(
        file,
        JSON.stringify({ description: "x", responses: [{ step: "s", question: "q", promptContains: "", output: 1 }] }),
      );
      await expect(answer("x")).rejects.toThrow(/promptContains/);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
