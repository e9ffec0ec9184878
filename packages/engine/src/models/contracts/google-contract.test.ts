import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { stepOutputSchemas } from "../../steps/step-output-schemas";
import { stepNames } from "../../steps/step-registry";
import { type CapturedStep, captureStepRequests } from "../../testing/capture-step-requests";
import { googleProblems } from "./structured-output-rules";

// The requests nlq sends Google (`google:`, Gemini generateContent) for every step, checked against Gemini's Schema.

let captured: Map<string, CapturedStep>;

beforeAll(async () => {
  vi.stubEnv("GOOGLE_GENERATIVE_AI_API_KEY", "test-key");
  captured = await captureStepRequests({ reference: "google:gemini-2.5-flash" });
});
afterAll(() => {
  vi.unstubAllEnvs();
});

describe("Google contract (Gemini responseSchema)", () => {
  it.each(stepNames)("%s: one request Gemini accepts, and its reply parses", (step) => {
    const result = captured.get(step)!;
    expect(result.error).toBeUndefined();
    expect(result.requests).toHaveLength(1);
    expect(result.requests[0]!.url).toMatch(/\/models\/gemini-2\.5-flash:generateContent$/);
    expect(googleProblems(result.requests[0]!.body)).toEqual([]);
    expect(stepOutputSchemas[step].safeParse(result.output).success).toBe(true);
  });

  it("refuses what Gemini refuses: a null type, additionalProperties, an object without properties", () => {
    const body = (responseSchema: unknown) => ({
      generationConfig: { responseMimeType: "application/json", responseSchema },
    });
    expect(
      googleProblems(
        body({
          type: "object",
          additionalProperties: false,
          properties: { a: { type: ["string", "null"] }, b: { type: "object" } },
        }),
      ),
    ).toEqual([
      '$: Gemini\'s Schema does not support the keyword "additionalProperties"',
      "$.a: type must be one of string, number, integer, boolean, array, object",
      "$.b: an object needs properties",
    ]);
  });
});
