import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { EmbeddingModelV3 } from "@ai-sdk/provider";
import { ModelConfigurationError } from "../errors";
import { createOfflineEmbeddingModel } from "./offline-embedding-model";

/** Environment variables the resolver reads. */
export interface EmbeddingEnvironment {
  /** `provider:model` reference; unset or `builtin` → the offline embedder. */
  readonly NLQ_EMBEDDING_MODEL?: string | undefined;
  /** Base URL of an OpenAI-compatible server (`openai-compatible:` models). Ollama's default is used for `ollama:`. */
  readonly NLQ_OPENAI_COMPATIBLE_URL?: string | undefined;
  /** API key of the OpenAI-compatible server, if it needs one. */
  readonly NLQ_OPENAI_COMPATIBLE_API_KEY?: string | undefined;
  readonly OPENAI_API_KEY?: string | undefined;
  readonly GOOGLE_GENERATIVE_AI_API_KEY?: string | undefined;
}

const ollamaDefaultUrl = "http://127.0.0.1:11434/v1";

/**
 * Resolves an embedding model reference (`NLQ_EMBEDDING_MODEL`):
 * `builtin` (or empty/undefined) → the offline embedder; `openai:text-embedding-3-small`; `google:text-embedding-004`;
 * `ollama:nomic-embed-text` (OpenAI-compatible endpoint, `NLQ_OPENAI_COMPATIBLE_URL` or Ollama's default URL);
 * `openai-compatible:<model>` (needs `NLQ_OPENAI_COMPATIBLE_URL`).
 * Throws `ModelConfigurationError` for unknown providers or missing settings.
 */
export function resolveEmbeddingModel(
  reference: string | undefined,
  environment: EmbeddingEnvironment = process.env as EmbeddingEnvironment,
): EmbeddingModelV3 {
  const trimmed = reference?.trim() ?? "";
  if (trimmed === "" || trimmed === "builtin" || trimmed === "builtin:offline") return createOfflineEmbeddingModel();
  const separator = trimmed.indexOf(":");
  if (separator <= 0 || separator === trimmed.length - 1) {
    throw new ModelConfigurationError(`embedding model reference "${trimmed}" is not of the form provider:model`);
  }
  const provider = trimmed.slice(0, separator);
  const modelId = trimmed.slice(separator + 1);
  switch (provider) {
    case "builtin":
      return createOfflineEmbeddingModel();
    case "openai":
      return createOpenAI({ apiKey: environment.OPENAI_API_KEY }).embeddingModel(modelId);
    case "google":
      return createGoogleGenerativeAI({ apiKey: environment.GOOGLE_GENERATIVE_AI_API_KEY }).embeddingModel(modelId);
    case "ollama":
      return createOpenAICompatible({
        name: "ollama",
        baseURL: environment.NLQ_OPENAI_COMPATIBLE_URL ?? ollamaDefaultUrl,
      }).embeddingModel(modelId);
    case "openai-compatible": {
      const baseURL = environment.NLQ_OPENAI_COMPATIBLE_URL;
      if (!baseURL) {
        throw new ModelConfigurationError(`"${trimmed}" needs NLQ_OPENAI_COMPATIBLE_URL (the server's base URL)`);
      }
      return createOpenAICompatible({
        name: "openai-compatible",
        baseURL,
        apiKey: environment.NLQ_OPENAI_COMPATIBLE_API_KEY,
      }).embeddingModel(modelId);
    }
    default:
      throw new ModelConfigurationError(
        `unknown embedding provider "${provider}" (use builtin, openai, google, ollama or openai-compatible)`,
      );
  }
}
