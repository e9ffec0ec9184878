import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3Prompt } from "@ai-sdk/provider";

/** What one model call was sent: its step and the characters of its system and other (prompt) messages. */
export interface RecordedCall {
  /** The pipeline step that called (`providerOptions.nlq.step`), or `(unknown step)`. */
  readonly step: string;
  /** Characters of the system messages. */
  readonly systemCharacters: number;
  /** Characters of the text parts of the user, assistant and tool messages. */
  readonly promptCharacters: number;
}

function textCharacters(prompt: LanguageModelV3Prompt): { system: number; other: number } {
  let system = 0;
  let other = 0;
  for (const message of prompt) {
    if (message.role === "system") {
      system += message.content.length;
      continue;
    }
    for (const part of message.content) {
      if (part.type === "text" || part.type === "reasoning") other += part.text.length;
    }
  }
  return { system, other };
}

function stepOf(options: LanguageModelV3CallOptions): string {
  const nlq = options.providerOptions?.nlq as { step?: unknown } | undefined;
  return typeof nlq?.step === "string" ? nlq.step : "(unknown step)";
}

/**
 * Wraps a `LanguageModelV3` so that every call's system and prompt characters are reported to `onCall` before the
 * call goes to `inner` (a scripted replay reports zero tokens, so the benchmark measures what was sent instead).
 * Answers, errors and streams are `inner`'s, unchanged.
 */
export function createRecordingModel(inner: LanguageModelV3, onCall: (call: RecordedCall) => void): LanguageModelV3 {
  const record = (options: LanguageModelV3CallOptions) => {
    const characters = textCharacters(options.prompt);
    onCall({ step: stepOf(options), systemCharacters: characters.system, promptCharacters: characters.other });
  };
  return {
    specificationVersion: "v3",
    provider: inner.provider,
    modelId: inner.modelId,
    supportedUrls: inner.supportedUrls,
    doGenerate(options) {
      record(options);
      return inner.doGenerate(options);
    },
    doStream(options) {
      record(options);
      return inner.doStream(options);
    },
  };
}
