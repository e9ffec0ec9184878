import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { stepOutputSchemas } from "../../steps/step-output-schemas";
import { stepNames } from "../../steps/step-registry";
import { type CapturedStep, captureStepRequests } from "../../testing/capture-step-requests";
import { openAiStrictProblems } from "./structured-output-rules";

// The requests nlq sends OpenAI (`openai:`: the Responses API, strict structured outputs) for every step, checked
// against OpenAI's strict-schema rules; no network, a stub fetch answers.

let captured: Map<string, CapturedStep>;

beforeAll(async () => {
  vi.stubEnv("OPENAI_API_KEY", "test-key");
  vi.stubEnv("OPENAI_BASE_URL", "https://api.openai.com/v1");
  captured = await captureStepRequests({ reference: "openai:gpt-4o-mini" });
});
afterAll(() => {
  vi.unstubAllEnvs();
});

describe("OpenAI contract (strict structured outputs)", () => {
  it.each(stepNames)("%s: one request OpenAI strict mode accepts, and its reply parses", (step) => {
    const result = captured.get(step)!;
    expect(result.error).toBeUndefined();
    expect(result.requests).toHaveLength(1);
    const [request] = result.requests;
    expect(request!.url).toBe("https://api.openai.com/v1/responses");
    expect(openAiStrictProblems(request!.body)).toEqual([]);
    expect(stepOutputSchemas[step].safeParse(result.output).success).toBe(true);
  });

  it("refuses what OpenAI refuses: an optional property, an open object, minLength (the rules are real)", () => {
    const body = (schema: unknown) => ({
      text: { format: { type: "json_schema", strict: true, name: "response", schema } },
    });
    const old = z.toJSONSchema(z.object({ reasoning: z.string().optional(), answer: z.enum(["A", "B"]) }), {
      target: "draft-7",
      io: "input",
    });
    expect(openAiStrictProblems(body({ ...old, additionalProperties: false }))).toEqual([
      '$: property "reasoning" is missing from required',
    ]);
    expect(
      openAiStrictProblems(
        body({ type: "object", properties: { a: { type: "string", minLength: 1 } }, required: ["a"] }),
      ),
    ).toEqual([
      "$: additionalProperties must be false",
      '$.a: OpenAI strict mode does not support the keyword "minLength"',
    ]);
  });
});
