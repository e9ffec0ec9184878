import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3Prompt } from "@ai-sdk/provider";

/** What one model call was sent: its step and the characters of its system and other (prompt) messages. */
export interface RecordedCall {
  /** The pipeline step that called (`providerOptions.nlq.step`), or `(unknown step)`. */
  readonly step: string;
  /** Characters of the system messages. */
  readonly systemCharacters: number;
  /** Characters of the text parts of the user, assistant and tool messages. */
  readonly promptCharacters: number;
  /** When the call reached the model and when its answer came back (`performance.now()`; `ended` unset while open). */
  readonly started: number;
  ended?: number;
}

/**
 * The critical path of a question's model calls: the most calls that ran one after another (each starting after the
 * previous one ended), i.e. the sequential model rounds a question waits for whatever the concurrency. A call still
 * open counts as ending when the question did (`until`).
 */
export function modelRounds(calls: readonly RecordedCall[], until: number = performance.now()): number {
  const ordered = [...calls].sort((left, right) => left.started - right.started);
  const depth: number[] = [];
  let longest = 0;
  ordered.forEach((call, index) => {
    let before = 0;
    for (let earlier = 0; earlier < index; earlier++) {
      if ((ordered[earlier]!.ended ?? until) <= call.started) before = Math.max(before, depth[earlier]!);
    }
    depth[index] = before + 1;
    longest = Math.max(longest, depth[index]!);
  });
  return longest;
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
 * call goes to `inner` (a scripted replay reports zero tokens, so the benchmark measures what was sent instead), with
 * its start and end times, after an optional simulated latency. Answers, errors and streams are `inner`'s, unchanged.
 */
export function createRecordingModel(
  inner: LanguageModelV3,
  onCall: (call: RecordedCall) => void,
  options: {
    /** Each call waits this long before `inner` answers (a remote model's latency, simulated). Default 0. */
    readonly simulatedLatencyMilliseconds?: number;
  } = {},
): LanguageModelV3 {
  const latency = options.simulatedLatencyMilliseconds ?? 0;
  const record = (callOptions: LanguageModelV3CallOptions) => {
    const characters = textCharacters(callOptions.prompt);
    const call: RecordedCall = {
      step: stepOf(callOptions),
      systemCharacters: characters.system,
      promptCharacters: characters.other,
      started: performance.now(),
    };
    onCall(call);
    return call;
  };
  const later = async <RESULT>(call: RecordedCall, answer: () => PromiseLike<RESULT>): Promise<RESULT> => {
    try {
      if (latency > 0) await new Promise((resolve) => setTimeout(resolve, latency));
      return await answer();
    } finally {
      call.ended = performance.now();
    }
  };
  return {
    specificationVersion: "v3",
    provider: inner.provider,
    modelId: inner.modelId,
    supportedUrls: inner.supportedUrls,
    doGenerate(callOptions) {
      const call = record(callOptions);
      return later(call, () => inner.doGenerate(callOptions));
    },
    doStream(callOptions) {
      const call = record(callOptions);
      return later(call, () => inner.doStream(callOptions));
    },
  };
}
