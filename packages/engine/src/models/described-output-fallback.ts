import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Middleware,
  LanguageModelV3Prompt,
} from "@ai-sdk/provider";
import { APICallError, wrapLanguageModel } from "ai";

/**
 * Servers (base URL + model) that refused a JSON-schema `response_format` in this process: their later calls describe
 * the format in the prompt at once, without a refused request first.
 */
const describeFormatInPrompt = new Set<string>();

/** The instruction that stands in for `response_format` when a server does not accept one. */
function describedFormatInstruction(schema: unknown): string {
  return [
    "Answer with exactly one JSON object and nothing else (no prose, no Markdown fence).",
    "It must match this JSON Schema; every property is required, and null stands for none where the schema allows it:",
    JSON.stringify(schema),
  ].join("\n");
}

/** `params` without `response_format`, the format described in the system message instead. */
function withDescribedFormat(params: LanguageModelV3CallOptions): LanguageModelV3CallOptions {
  if (params.responseFormat?.type !== "json") return params;
  const instruction = describedFormatInstruction(params.responseFormat.schema ?? { type: "object" });
  const prompt: LanguageModelV3Prompt = [...params.prompt];
  const systemIndex = prompt.findIndex((message) => message.role === "system");
  if (systemIndex >= 0) {
    const system = prompt[systemIndex] as Extract<LanguageModelV3Prompt[number], { role: "system" }>;
    prompt[systemIndex] = { ...system, content: `${system.content}\n\n${instruction}` };
  } else {
    prompt.unshift({ role: "system", content: instruction });
  }
  return { ...params, prompt, responseFormat: { type: "text" } };
}

/** Whether a failed call is the server refusing the request as sent (400 or 422), not a transient failure. */
function isRefusedRequest(error: unknown): boolean {
  return APICallError.isInstance(error) && (error.statusCode === 400 || error.statusCode === 422);
}

/**
 * Wraps a model of an OpenAI-compatible server (Ollama, vLLM, LM Studio, llama.cpp, …) that is asked for
 * `response_format: json_schema`. A server that refuses it (HTTP 400 or 422, e.g. one that knows no structured
 * outputs) is asked again once with the format described in the system message and no `response_format`; the server
 * (`key`: base URL and model) is then remembered for the rest of the process, so later calls go straight to the
 * described format. A refusal of the described request too is the call's error.
 */
export function withDescribedOutputFallback(model: LanguageModelV3, key: string): LanguageModelV3 {
  const middleware: LanguageModelV3Middleware = {
    specificationVersion: "v3",
    async wrapGenerate({ doGenerate, params, model: inner }) {
      if (params.responseFormat?.type !== "json") return doGenerate();
      if (describeFormatInPrompt.has(key)) return inner.doGenerate(withDescribedFormat(params));
      try {
        return await doGenerate();
      } catch (error) {
        if (!isRefusedRequest(error) || params.abortSignal?.aborted) throw error;
        const result = await inner.doGenerate(withDescribedFormat(params));
        describeFormatInPrompt.add(key);
        return result;
      }
    },
  };
  return wrapLanguageModel({ model, middleware });
}

/** Forgets which servers refused `response_format` (tests). */
export function resetDescribedOutputFallback(): void {
  describeFormatInPrompt.clear();
}
