import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModel } from "ai";
import { modelReferenceForStep, type Settings } from "../config/settings";
import { ModelConfigurationError } from "../errors";
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

/** Resolves a `provider:model` reference to an AI SDK language model. Provider keys come from the providers' own variables. */
export function resolveModel(
  reference: string,
  settings: Pick<Settings, "openAiCompatibleUrl"> & Partial<Pick<Settings, "openAiCompatibleApiKey">>,
): ResolvedModel {
  const parsed = parseModelReference(reference);
  switch (parsed.provider) {
    case "openai":
      return { model: createOpenAI()(parsed.model), id: parsed.id, scripted: false };
    case "anthropic":
      return { model: createAnthropic()(parsed.model), id: parsed.id, scripted: false };
    case "google":
      return { model: createGoogleGenerativeAI()(parsed.model), id: parsed.id, scripted: false };
    case "ollama": {
      const provider = createOpenAICompatible({
        name: "ollama",
        baseURL: settings.openAiCompatibleUrl ?? defaultOllamaUrl,
        supportsStructuredOutputs: true,
      });
      return { model: provider(parsed.model), id: parsed.id, scripted: false };
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
      });
      return { model: provider(parsed.model), id: parsed.id, scripted: false };
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
