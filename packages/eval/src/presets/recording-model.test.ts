import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { createRecordingModel, modelRounds, type RecordedCall } from "./recording-model";

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
    expect(calls).toEqual([
      {
        step: "generate-candidate",
        systemCharacters: 4,
        promptCharacters: 7,
        started: expect.any(Number),
        ended: expect.any(Number),
      },
    ]);
    expect(calls[0]!.ended!).toBeGreaterThanOrEqual(calls[0]!.started);
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
    expect(calls).toMatchObject([{ step: "(unknown step)", systemCharacters: 1, promptCharacters: 0 }]);
    expect(calls[0]!.ended).toBeDefined();
  });
});

describe("modelRounds", () => {
  const call = (step: string, started: number, ended?: number) => ({
    step,
    systemCharacters: 0,
    promptCharacters: 0,
    started,
    ...(ended === undefined ? {} : { ended }),
  });
  it("counts the longest chain of calls each starting after the one before ended", () => {
    expect(modelRounds([])).toBe(0);
    // keywords ∥ hallucination, three filter batches at once, tables, columns, three generators at once: 5 rounds.
    const calls = [
      call("extract-keywords", 0, 10),
      call("hallucinate-schema", 0, 12),
      ...[0, 1, 2].map(() => call("filter-column", 12, 20)),
      call("select-tables", 20, 30),
      call("select-columns", 30, 40),
      ...[0, 1, 2].map(() => call("generate", 40, 50)),
    ];
    expect(modelRounds(calls)).toBe(5);
    // The same calls one after another: 10 rounds; a call still open ends when the question did.
    expect(modelRounds(calls.map((_, index) => call("x", index * 10, index * 10 + 10)))).toBe(10);
    expect(modelRounds([call("a", 0), call("b", 5)], 4)).toBe(2);
  });
});
