import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { EmbeddingModelV3 } from "@ai-sdk/provider";
import { ModelConfigurationError } from "../errors/model-errors";
import { createOfflineEmbeddingModel } from "./offline-embedding-model";

/** Where `ollama:` and `openai-compatible:` embedding models are served (the pipeline's `Settings` fit). */
export interface EmbeddingConnection {
  /** `NLQ_OPENAI_COMPATIBLE_URL`: base URL of the server. Default: unset (Ollama's default URL for `ollama:`). */
  readonly openAiCompatibleUrl?: string | undefined;
  /** `NLQ_OPENAI_COMPATIBLE_API_KEY`: API key of that server, if it needs one. Default: none. */
  readonly openAiCompatibleApiKey?: string | undefined;
}

/** Providers `NLQ_EMBEDDING_MODEL` may name (besides `builtin`). */
export const embeddingProviders: readonly string[] = ["builtin", "openai", "google", "ollama", "openai-compatible"];

/**
 * The built-in embedders `NLQ_EMBEDDING_MODEL` may name: `builtin` (and `builtin:offline`, its older name) and
 * `builtin:word-vectors` are the trained offline embedder (the adapters load its word vectors:
 * `resolvePipelineEmbeddingModel`), `builtin:lexical` the lexical `hashed-ngrams-v1` alone.
 */
export const builtinEmbeddingReferences: readonly string[] = [
  "builtin",
  "builtin:offline",
  "builtin:word-vectors",
  "builtin:lexical",
];

/** Whether a reference names a built-in embedder (or none: unset and empty mean `builtin`). */
export function isBuiltinEmbeddingReference(reference: string | undefined): boolean {
  const trimmed = reference?.trim() ?? "";
  return trimmed === "" || builtinEmbeddingReferences.includes(trimmed);
}

const ollamaDefaultUrl = "http://127.0.0.1:11434/v1";

/**
 * Resolves an embedding model reference (`settings.embeddingModel`, from `NLQ_EMBEDDING_MODEL`) without I/O:
 * a built-in reference (or empty/undefined) → the lexical offline embedder (the trained one needs its word vectors
 * read from disk, which the adapters' `resolvePipelineEmbeddingModel` does: use that one in the pipeline); `openai:text-embedding-3-small`; `google:text-embedding-004`;
 * `ollama:nomic-embed-text` (OpenAI-compatible endpoint, `connection.openAiCompatibleUrl` or Ollama's default URL);
 * `openai-compatible:<model>` (needs `connection.openAiCompatibleUrl`, i.e. `NLQ_OPENAI_COMPATIBLE_URL`).
 * OpenAI and Google read their own API key variables (`OPENAI_API_KEY`, `GOOGLE_GENERATIVE_AI_API_KEY`).
 * Throws `ModelConfigurationError` for unknown providers or missing settings.
 */
export function resolveEmbeddingModel(
  reference: string | undefined,
  connection: EmbeddingConnection = {},
): EmbeddingModelV3 {
  const trimmed = reference?.trim() ?? "";
  if (isBuiltinEmbeddingReference(trimmed)) return createOfflineEmbeddingModel();
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
      return createOpenAI().embeddingModel(modelId);
    case "google":
      return createGoogleGenerativeAI().embeddingModel(modelId);
    case "ollama":
      return createOpenAICompatible({
        name: "ollama",
        baseURL: connection.openAiCompatibleUrl ?? ollamaDefaultUrl,
      }).embeddingModel(modelId);
    case "openai-compatible": {
      const baseURL = connection.openAiCompatibleUrl;
      if (!baseURL) {
        throw new ModelConfigurationError(`"${trimmed}" needs NLQ_OPENAI_COMPATIBLE_URL (the server's base URL)`);
      }
      return createOpenAICompatible({
        name: "openai-compatible",
        baseURL,
        apiKey: connection.openAiCompatibleApiKey,
      }).embeddingModel(modelId);
    }
    default:
      throw new ModelConfigurationError(
        `unknown embedding provider "${provider}" (use builtin, openai, google, ollama or openai-compatible)`,
      );
  }
}
