import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModel } from "ai";
import { modelReferenceForStep, type Settings } from "../config/settings";
import { ModelConfigurationError } from "../errors/model-errors";
import { withDescribedOutputFallback } from "./described-output-fallback";
import { modelConfigurationHelp, parseModelReference } from "./model-reference";
import { createScriptedModel } from "./scripted-model";

/** Default base URL of `ollama:` models when `NLQ_OPENAI_COMPATIBLE_URL` is unset. */
export const defaultOllamaUrl = "http://127.0.0.1:11434/v1";

/** A model ready for a step: the AI SDK model itself, its reference and whether it is a scripted replay. */
export interface ResolvedModel {
  readonly model: LanguageModel;
  /** `provider:model` as configured. */
  readonly id: string;
  readonly scripted: boolean;
}

export interface ResolveModelOptions {
  /** The HTTP client every provider uses. Default: the global `fetch` (the provider contract tests capture requests). */
  readonly fetch?: typeof globalThis.fetch;
}

/**
 * Resolves a `provider:model` reference to an AI SDK language model. Provider keys come from the providers' own
 * variables. Structured output, per provider: OpenAI `json_schema` with `strict: true` (the Responses API), Anthropic
 * its JSON-schema output format (a JSON tool on models without one), Google `responseSchema`; Ollama and other
 * OpenAI-compatible servers (vLLM, LM Studio, llama.cpp) `response_format: json_schema` — never `json_object`, which
 * LM Studio refuses — and, when a server refuses that (HTTP 400/422), the format described in the prompt instead
 * (`withDescribedOutputFallback`). Every step's schema keeps to the rules all of them accept (every property required,
 * closed objects, no length or count constraints); see the provider contract tests beside this file.
 */
export function resolveModel(
  reference: string,
  settings: Pick<Settings, "openAiCompatibleUrl"> & Partial<Pick<Settings, "openAiCompatibleApiKey">>,
  options: ResolveModelOptions = {},
): ResolvedModel {
  const parsed = parseModelReference(reference);
  const fetch = options.fetch;
  switch (parsed.provider) {
    case "openai":
      return { model: createOpenAI({ fetch })(parsed.model), id: parsed.id, scripted: false };
    case "anthropic":
      return { model: createAnthropic({ fetch })(parsed.model), id: parsed.id, scripted: false };
    case "google":
      return { model: createGoogleGenerativeAI({ fetch })(parsed.model), id: parsed.id, scripted: false };
    case "ollama": {
      const baseURL = settings.openAiCompatibleUrl ?? defaultOllamaUrl;
      const provider = createOpenAICompatible({ name: "ollama", baseURL, supportsStructuredOutputs: true, fetch });
      return {
        model: withDescribedOutputFallback(provider(parsed.model), `${baseURL} ${parsed.model}`),
        id: parsed.id,
        scripted: false,
      };
    }
    case "openai-compatible": {
      if (!settings.openAiCompatibleUrl) {
        throw new ModelConfigurationError(
          `model "${parsed.id}" needs NLQ_OPENAI_COMPATIBLE_URL (the server's base URL, e.g. http://localhost:8000/v1)`,
        );
      }
      const provider = createOpenAICompatible({
        name: "openai-compatible",
        baseURL: settings.openAiCompatibleUrl,
        apiKey: settings.openAiCompatibleApiKey,
        supportsStructuredOutputs: true,
        fetch,
      });
      return {
        model: withDescribedOutputFallback(provider(parsed.model), `${settings.openAiCompatibleUrl} ${parsed.model}`),
        id: parsed.id,
        scripted: false,
      };
    }
    case "scripted":
      return { model: createScriptedModel(parsed.model), id: parsed.id, scripted: true };
  }
}

/** The model configured for a step (`NLQ_MODEL_<STEP>` or `NLQ_MODEL`); throws `ModelConfigurationError` with setup instructions when none is. */
export function resolveStepModel(settings: Settings, step: string): ResolvedModel {
  const reference = modelReferenceForStep(settings, step);
  if (!reference) {
    throw new ModelConfigurationError(`no language model is configured for step "${step}".\n${modelConfigurationHelp}`);
  }
  return resolveModel(reference, settings);
}
