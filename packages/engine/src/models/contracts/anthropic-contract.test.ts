import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { stepOutputSchemas } from "../../steps/step-output-schemas";
import { stepNames } from "../../steps/step-registry";
import { type CapturedStep, captureStepRequests } from "../../testing/capture-step-requests";
import { anthropicProblems } from "./structured-output-rules";

// The requests nlq sends Anthropic (`anthropic:`, the Messages API) for every step: structured outputs on models that
// have them, a forced JSON tool on older ones; checked against Anthropic's JSON-schema limitations.

const models = ["claude-sonnet-4-5", "claude-3-5-haiku-latest"];
const captured = new Map<string, Map<string, CapturedStep>>();

beforeAll(async () => {
  vi.stubEnv("ANTHROPIC_API_KEY", "test-key");
  vi.stubEnv("ANTHROPIC_BASE_URL", "https://api.anthropic.com/v1");
  for (const model of models) captured.set(model, await captureStepRequests({ reference: `anthropic:${model}` }));
});
afterAll(() => {
  vi.unstubAllEnvs();
});

describe("Anthropic contract", () => {
  for (const model of models) {
    it.each(stepNames)(`${model}: %s sends one request Anthropic accepts, and its reply parses`, (step) => {
      const result = captured.get(model)!.get(step)!;
      expect(result.error).toBeUndefined();
      expect(result.requests).toHaveLength(1);
      expect(result.requests[0]!.url).toBe("https://api.anthropic.com/v1/messages");
      expect(anthropicProblems(result.requests[0]!.body)).toEqual([]);
      expect(stepOutputSchemas[step].safeParse(result.output).success).toBe(true);
    });
  }

  it("refuses what Anthropic refuses: an open object, length and count constraints", () => {
    const body = (schema: unknown) => ({ max_tokens: 10, output_config: { format: { type: "json_schema", schema } } });
    expect(
      anthropicProblems(
        body({
          type: "object",
          properties: {
            a: { type: "string", maxLength: 3 },
            b: { type: "array", items: { type: "string" }, minItems: 2 },
          },
        }),
      ),
    ).toEqual([
      "$: additionalProperties must be false",
      '$.a: Anthropic does not support the keyword "maxLength"',
      "$.b: minItems must be 0 or 1",
    ]);
  });
});
