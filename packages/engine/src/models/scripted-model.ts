import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import { ModelCallError } from "../errors/model-errors";
import { quotedPrefix } from "../text/quoted-prefix";
import { promptText } from "./prompt-text";
import { findScriptedOutput, readScriptedFixture } from "./scripted-fixture";

/** Provider name of scripted models; `LlmCallRecord.scripted` is true for them. */
export const scriptedProvider = "scripted";

/**
 * How a pipeline step tells the scripted model which response to replay:
 * `providerOptions: { nlq: { step, question, sample } }`.
 */
export interface ScriptedCallKey {
  readonly step: string;
  readonly question: string;
  readonly sample: number;
}

const zeroUsage: LanguageModelV3Usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

function callKey(options: LanguageModelV3CallOptions): ScriptedCallKey {
  const nlq = options.providerOptions?.nlq as { step?: unknown; question?: unknown; sample?: unknown } | undefined;
  return {
    step: typeof nlq?.step === "string" ? nlq.step : "(unknown step)",
    question: typeof nlq?.question === "string" ? nlq.question : "",
    sample: typeof nlq?.sample === "number" ? nlq.sample : 0,
  };
}

/**
 * A `LanguageModelV3` that replays recorded responses from a fixture file (see `scripted-fixture.ts`), keyed by
 * pipeline step and question (and, for entries with `promptContains`, the prompt's text). No language model is
 * involved: answers carry `scripted: true` and say so. The fixture is re-read on every call so edits apply without a
 * restart.
 */
export function createScriptedModel(fixturePath: string): LanguageModelV3 {
  readScriptedFixture(fixturePath);
  const generate = async (options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> => {
    options.abortSignal?.throwIfAborted();
    const { fixture, absolutePath } = readScriptedFixture(fixturePath);
    const key = callKey(options);
    const found = findScriptedOutput(fixture, key.step, key.question, key.sample, promptText(options));
    if (!found) {
      throw new ModelCallError(
        `scripted model has no response for step "${key.step}" and question ${quotedPrefix(key.question)} in ${absolutePath}`,
        { step: key.step },
      );
    }
    const text = typeof found.output === "string" ? found.output : JSON.stringify(found.output);
    return {
      content: [{ type: "text", text }],
      finishReason: { unified: "stop", raw: "scripted" },
      usage: zeroUsage,
      warnings: [],
      response: { modelId: fixturePath, timestamp: new Date(0) },
    };
  };
  return {
    specificationVersion: "v3",
    provider: scriptedProvider,
    modelId: fixturePath,
    supportedUrls: {},
    doGenerate: generate,
    async doStream(options) {
      const result = await generate(options);
      const text = result.content[0]?.type === "text" ? result.content[0].text : "";
      const parts: LanguageModelV3StreamPart[] = [
        { type: "stream-start", warnings: [] },
        { type: "text-start", id: "0" },
        { type: "text-delta", id: "0", delta: text },
        { type: "text-end", id: "0" },
        { type: "finish", usage: zeroUsage, finishReason: result.finishReason },
      ];
      return {
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  };
}
