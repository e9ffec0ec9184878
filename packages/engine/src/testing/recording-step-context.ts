import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { loadSettings } from "../config/settings";
import { createStepContext, type StepContext } from "../llm/step-context";
import { mockTextModel } from "./mock-text-model";

/** One model call as the mock model saw it. */
export interface RecordedCall {
  readonly step: string;
  readonly sample: number;
  readonly temperature: number | undefined;
  readonly system: string;
  readonly prompt: string;
}

function messageText(call: LanguageModelV3CallOptions, role: "system" | "user"): string {
  return call.prompt
    .filter((message) => message.role === role)
    .map((message) =>
      typeof message.content === "string"
        ? message.content
        : message.content.map((part) => (part.type === "text" ? part.text : "")).join(""),
    )
    .join("\n");
}

/**
 * Test helper: a step context for `question` whose every step runs on an AI SDK mock model (no real model) answering
 * with `answer(call)`; `calls` records each call's step, sample, temperature, system and user prompt.
 */
export function recordingStepContext(
  question: string,
  answer: (call: RecordedCall) => string,
  options: { hint?: string } = {},
): { context: StepContext; calls: RecordedCall[] } {
  const calls: RecordedCall[] = [];
  const context = createStepContext({
    question,
    hint: options.hint,
    settings: loadSettings({}),
    resolveModel: (step) => ({
      model: mockTextModel((call) => {
        const nlq = call.providerOptions?.nlq as { step?: string; sample?: number } | undefined;
        const recorded: RecordedCall = {
          step: nlq?.step ?? step,
          sample: nlq?.sample ?? 0,
          temperature: call.temperature,
          system: messageText(call, "system"),
          prompt: messageText(call, "user"),
        };
        calls.push(recorded);
        return answer(recorded);
      }),
      id: `mock:${step}`,
      scripted: false,
    }),
  });
  return { context, calls };
}
