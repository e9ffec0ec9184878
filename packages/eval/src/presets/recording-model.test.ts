import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { createRecordingModel, type RecordedCall } from "./recording-model";

describe("createRecordingModel", () => {
  it("reports the step and the characters of the system and other messages, then answers as the inner model", async () => {
    const inner = new MockLanguageModelV3({
      doGenerate: async () => ({
        content: [{ type: "text", text: "answer" }],
        finishReason: { unified: "stop", raw: undefined },
        usage: {
          inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 0, text: 0, reasoning: 0 },
        },
        warnings: [],
      }),
    });
    const calls: RecordedCall[] = [];
    const model = createRecordingModel(inner, (call) => calls.push(call));
    const result = await model.doGenerate({
      prompt: [
        { role: "system", content: "abcd" },
        { role: "user", content: [{ type: "text", text: "hello" }] },
        { role: "assistant", content: [{ type: "text", text: "hi" }] },
      ],
      providerOptions: { nlq: { step: "generate-candidate" } },
    });
    expect(result.content).toEqual([{ type: "text", text: "answer" }]);
    expect(calls).toEqual([{ step: "generate-candidate", systemCharacters: 4, promptCharacters: 7 }]);
    expect(inner.doGenerateCalls).toHaveLength(1);
  });

  it("records a call that the inner model then fails", async () => {
    const inner = new MockLanguageModelV3({
      doGenerate: async () => {
        throw new Error("no response");
      },
    });
    const calls: RecordedCall[] = [];
    const model = createRecordingModel(inner, (call) => calls.push(call));
    await expect(model.doGenerate({ prompt: [{ role: "system", content: "x" }] })).rejects.toThrow("no response");
    expect(calls).toEqual([{ step: "(unknown step)", systemCharacters: 1, promptCharacters: 0 }]);
  });
});
