import type { LanguageModelV3CallOptions, LanguageModelV3GenerateResult } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";

/** Token counts a mock call reports. */
export interface MockTokenCounts {
  /** Input (prompt) tokens, all uncached. */
  readonly input: number;
  /** Output tokens, all text. */
  readonly output: number;
}

/** Test helper: one generate result with `text` as its only content, finish reason "stop" and the given tokens. */
export function mockTextResult(
  text: string,
  tokens: MockTokenCounts = { input: 1, output: 1 },
): LanguageModelV3GenerateResult {
  return {
    content: [{ type: "text", text }],
    finishReason: { unified: "stop", raw: undefined },
    usage: {
      inputTokens: { total: tokens.input, noCache: tokens.input, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: tokens.output, text: tokens.output, reasoning: 0 },
    },
    warnings: [],
  };
}

/**
 * Test helper: an AI SDK `MockLanguageModelV3` (no real model) answering every call with `answer`, or with what
 * `answer(call)` returns or resolves to (it may record the call, wait, or throw). Tokens default to 1 in, 1 out.
 */
export function mockTextModel(
  answer: string | ((call: LanguageModelV3CallOptions) => string | Promise<string>),
  tokens?: MockTokenCounts,
): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: async (call) => mockTextResult(typeof answer === "string" ? answer : await answer(call), tokens),
  });
}

/** Test helper: the pipeline step a mock model call is for (the engine's `providerOptions.nlq.step`), or "". */
export function stepOf(call: LanguageModelV3CallOptions): string {
  return (call.providerOptions?.nlq as { step?: string } | undefined)?.step ?? "";
}
