import { sqlCandidateOutputSchema } from "@nlq/prompts";
import { APICallError } from "ai";
import { describe, expect, it } from "vitest";
import type { LlmCallRecord } from "../contract/events";
import { CancelledError } from "../errors/cancelled-error";
import { ModelCallError, ModelOutputError } from "../errors/model-errors";
import { createScriptedModel } from "../models/scripted-model";
import { mockTextModel } from "../testing/mock-text-model";
import { LlmBudget } from "./llm-budget";
import { runStep } from "./run-step";

const fixture = "packages/engine/src/models/fixtures/scripted-model-test.json";

const mockModel = (text: string) => mockTextModel(text, { input: 120, output: 30 });

describe("runStep", () => {
  it("returns the typed output and accounts for the call", async () => {
    const model = mockModel(JSON.stringify({ reasoning: "r", sql: "SELECT 1" }));
    const calls: LlmCallRecord[] = [];
    const result = await runStep({
      step: "generate-candidate",
      model,
      modelId: "mock:model",
      schema: sqlCandidateOutputSchema,
      prompt: "p",
      question: "q",
      onCall: (call) => calls.push(call),
    });
    expect(result.output).toEqual({ reasoning: "r", sql: "SELECT 1" });
    expect(calls).toEqual([result.call]);
    expect(result.call).toMatchObject({
      step: "generate-candidate",
      model: "mock:model",
      scripted: false,
      inputTokens: 120,
      outputTokens: 30,
    });
    expect(model.doGenerateCalls[0]?.providerOptions).toEqual({
      nlq: { step: "generate-candidate", question: "q", sample: 0 },
    });
    expect(model.doGenerateCalls[0]?.temperature).toBe(0);
  });

  it("throws ModelOutputError when the output does not match the schema, after accounting for the failed call", async () => {
    const calls: LlmCallRecord[] = [];
    const budget = new LlmBudget({ maxCalls: 5, deadlineMilliseconds: 60_000 });
    const attempt = runStep({
      step: "generate-candidate",
      model: mockModel('{"reasoning": 1}'),
      modelId: "mock:model",
      schema: sqlCandidateOutputSchema,
      prompt: "p",
      question: "q",
      budget,
      onCall: (call) => calls.push(call),
    });
    await expect(attempt).rejects.toBeInstanceOf(ModelOutputError);
    expect(calls).toEqual([
      expect.objectContaining({
        step: "generate-candidate",
        failure: "unreadable-output",
        inputTokens: 120,
        outputTokens: 30,
      }),
    ]);
    expect(budget.tokensUsed).toBe(150);
  });

  it("accounts for a call the provider failed, and for one cancelled while it ran", async () => {
    const calls: LlmCallRecord[] = [];
    const base = {
      step: "fix-candidate" as const,
      modelId: "mock:model",
      schema: sqlCandidateOutputSchema,
      prompt: "p",
      question: "q",
      maxRetries: 0,
      onCall: (call: LlmCallRecord) => calls.push(call),
    };
    const broken = mockTextModel(() => {
      throw new Error("503 upstream overloaded");
    });
    await expect(runStep({ ...base, model: broken })).rejects.toBeInstanceOf(ModelCallError);
    const controller = new AbortController();
    // A provider aborts its request when the signal fires; the mock does what its fetch would.
    const slow = mockTextModel(async () => {
      controller.abort();
      throw new DOMException("This operation was aborted", "AbortError");
    });
    await expect(runStep({ ...base, model: slow, abortSignal: controller.signal })).rejects.toBeInstanceOf(
      CancelledError,
    );
    expect(calls.map((call) => [call.step, call.failure, call.inputTokens])).toEqual([
      ["fix-candidate", "call-failed", 0],
      ["fix-candidate", "cancelled", 0],
    ]);
  });

  it("labels a request the provider refused (HTTP 4xx) apart from a failed call, and throws ModelCallError", async () => {
    const calls: LlmCallRecord[] = [];
    const refusing = (statusCode: number) =>
      mockTextModel(() => {
        throw new APICallError({
          message: "Invalid schema for response_format 'response'",
          url: "https://api.openai.com/v1/responses",
          requestBodyValues: {},
          statusCode,
        });
      });
    for (const statusCode of [400, 429]) {
      await expect(
        runStep({
          step: "select-tables",
          model: refusing(statusCode),
          modelId: "openai:gpt-4o-mini",
          schema: sqlCandidateOutputSchema,
          prompt: "p",
          question: "q",
          maxRetries: 0,
          onCall: (call) => calls.push(call),
        }),
      ).rejects.toBeInstanceOf(ModelCallError);
    }
    expect(calls.map((call) => call.failure)).toEqual(["refused", "call-failed"]);
  });

  it("enforces the call budget", async () => {
    const budget = new LlmBudget({ maxCalls: 1, deadlineMilliseconds: 60_000 });
    const options = {
      step: "generate-candidate" as const,
      model: mockModel(JSON.stringify({ reasoning: "r", sql: "SELECT 1" })),
      modelId: "mock:model",
      schema: sqlCandidateOutputSchema,
      prompt: "p",
      question: "q",
      budget,
    };
    await runStep(options);
    await expect(runStep(options)).rejects.toThrow(/budget exhausted \(1 calls\)/);
  });

  it("enforces the token budget", async () => {
    const budget = new LlmBudget({ maxCalls: 10, deadlineMilliseconds: 60_000, maxTokens: 200 });
    const options = {
      step: "fix-candidate" as const,
      model: mockModel(JSON.stringify({ reasoning: "r", sql: "SELECT 1" })),
      modelId: "mock:model",
      schema: sqlCandidateOutputSchema,
      prompt: "p",
      question: "q",
      budget,
    };
    await runStep(options);
    await runStep(options);
    expect(budget.tokensUsed).toBe(300);
    await expect(runStep(options)).rejects.toThrow(/token budget exhausted \(300 of 200 tokens\)/);
  });

  it("enforces the deadline and the abort signal", async () => {
    let now = 0;
    const budget = new LlmBudget({ maxCalls: 5, deadlineMilliseconds: 10, now: () => now });
    now = 11;
    const base = {
      step: "fix-candidate" as const,
      model: mockModel("{}"),
      modelId: "mock:model",
      schema: sqlCandidateOutputSchema,
      prompt: "p",
      question: "q",
    };
    await expect(runStep({ ...base, budget })).rejects.toBeInstanceOf(CancelledError);
    const controller = new AbortController();
    controller.abort();
    await expect(runStep({ ...base, abortSignal: controller.signal })).rejects.toBeInstanceOf(CancelledError);
  });
});

describe("scripted model through runStep", () => {
  const base = { modelId: `scripted:${fixture}`, schema: sqlCandidateOutputSchema, prompt: "p" };

  it("replays by step and normalized question, falling back to *", async () => {
    const model = createScriptedModel(fixture);
    const exact = await runStep({
      ...base,
      model,
      step: "generate-candidate",
      question: "  how many CUSTOMERS are   there!? ",
    });
    expect(exact.output.sql).toBe("SELECT count(*) FROM customers");
    expect(exact.call.scripted).toBe(true);
    const fallback = await runStep({ ...base, model, step: "generate-candidate", question: "something else" });
    expect(fallback.output.sql).toBe("SELECT 1");
  });

  it("names step, question and fixture when a response is missing", async () => {
    const model = createScriptedModel(fixture);
    const attempt = runStep({ ...base, model, step: "fix-candidate", question: "unknown question" });
    await expect(attempt).rejects.toBeInstanceOf(ModelCallError);
    await expect(attempt).rejects.toThrow(
      /step "fix-candidate" and question "unknown question" in .*scripted-model-test\.json/,
    );
  });

  it("reports a recorded output that does not match the schema", async () => {
    const model = createScriptedModel(fixture);
    await expect(runStep({ ...base, model, step: "fix-candidate", question: "broken output" })).rejects.toBeInstanceOf(
      ModelOutputError,
    );
  });
});

describe("runStep with loosely formatted output", () => {
  it("recovers JSON wrapped in prose and a Markdown fence", async () => {
    const model = mockModel('Here you go:\n```json\n{"reasoning": "r", "sql": "SELECT 2"}\n```\nDone.');
    const calls: LlmCallRecord[] = [];
    const result = await runStep({
      step: "generate-candidate",
      model,
      modelId: "mock:model",
      schema: sqlCandidateOutputSchema,
      prompt: "p",
      question: "q",
      onCall: (call) => calls.push(call),
    });
    expect(result.output).toEqual({ reasoning: "r", sql: "SELECT 2" });
    expect(calls).toHaveLength(1);
  });
});
