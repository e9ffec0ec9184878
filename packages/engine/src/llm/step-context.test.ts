import { describe, expect, it } from "vitest";
import { z } from "zod";
import { loadSettings } from "../config/settings";
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
});
