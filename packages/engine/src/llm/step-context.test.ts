import { selectCandidateOutputSchema } from "@nlq/prompts";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { loadSettings } from "../config/settings";
import type { PipelineEvent } from "../contract/events";
import type { StepName } from "../steps/step-registry";
import { mockTextModel } from "../testing/mock-text-model";
import { createStepContext } from "./step-context";

/** Steps made up for this test: only the context's caching is under test, not the registry. */
const stepA = "a" as StepName;
const stepB = "b" as StepName;

describe("createStepContext", () => {
  it("resolves each step's model once per question, however often the step runs", async () => {
    const resolved: string[] = [];
    const context = createStepContext({
      question: "q",
      settings: loadSettings({}),
      resolveModel: (step) => {
        resolved.push(step);
        return { model: mockTextModel(JSON.stringify({ value: step })), id: `mock:${step}`, scripted: false };
      },
    });
    const schema = z.object({ value: z.string() });
    expect(context.modelForStep(stepA)).toEqual({ id: "mock:a", scripted: false });
    expect(await context.runModelStep({ step: stepA, schema, prompt: "p" })).toEqual({ value: "a" });
    expect(await context.runModelStep({ step: stepA, schema, prompt: "p" })).toEqual({ value: "a" });
    expect(await context.runModelStep({ step: stepB, schema, prompt: "p" })).toEqual({ value: "b" });
    expect(resolved).toEqual(["a", "b"]);
    expect(context.calls.map((call) => call.model)).toEqual(["mock:a", "mock:a", "mock:b"]);
  });

  it("emits llm-call-start before each model call and llm-call-end after it", async () => {
    const events: PipelineEvent[] = [];
    const context = createStepContext({
      question: "q",
      settings: loadSettings({}),
      onEvent: (event) => events.push(event),
      resolveModel: () => ({ model: mockTextModel(JSON.stringify({ value: "x" })), id: "mock:x", scripted: false }),
    });
    const schema = z.object({ value: z.string() });
    await context.runModelStep({ step: stepA, schema, prompt: "p" });
    await context.runModelStep({ step: stepB, schema, prompt: "p" });
    expect(events.map((event) => (event.type === "llm-call-start" ? `start ${event.step}` : `${event.type}`))).toEqual([
      "start a",
      "llm-call-end",
      "start b",
      "llm-call-end",
    ]);
  });
});

describe("the response cache", () => {
  it("reads an output cached before a nullable property became required (it reads as null), without a call", async () => {
    let modelCalls = 0;
    const context = createStepContext({
      question: "q",
      settings: loadSettings({}),
      resolveModel: () => ({
        model: mockTextModel(() => {
          modelCalls += 1;
          return JSON.stringify({ reasoning: "fresh", answer: "B" });
        }),
        id: "mock:x",
        scripted: false,
      }),
      cache: {
        get: async () => ({ output: { answer: "A" }, inputTokens: 3, outputTokens: 1 }),
        put: async () => undefined,
      },
    });
    const output = await context.runModelStep({ step: stepA, schema: selectCandidateOutputSchema, prompt: "p" });
    expect(output).toEqual({ reasoning: null, answer: "A" });
    expect(modelCalls).toBe(0);
  });
});
