import type { EmbeddingModelV3 } from "@ai-sdk/provider";
import type { LiveValueLookup, SchemaSelector, Settings, ValueSearch, ValueVisibility } from "@nlq/engine";
import { createChessSchemaSelector, OfflineEmbeddingModel, WordVectorEmbeddingModel } from "@nlq/engine";
import { resolvePipelineEmbeddingModel } from "../embedding/pipeline-embedding-model";

/** Where a question's values come from (see `RetrieverOptions`). */
export interface RetrievalValueSources {
  readonly valueIndex?: ValueSearch;
  readonly liveValues?: LiveValueLookup;
  readonly liveValueColumns?: ReadonlySet<string>;
  readonly valueVisibility?: ValueVisibility;
}

/**
 * The embedding model of the value hits' rerank (CHESS retrieve_entity's embedding filter): the given one, else the
 * pipeline's (`resolvePipelineEmbeddingModel`: `NLQ_EMBEDDING_MODEL`, or the trained offline embedder); none only with
 * `builtin:lexical`, whose character features say nothing edit distance does not (edit distance alone then).
 */
export function valueRerankModel(settings: Settings, given?: EmbeddingModelV3): EmbeddingModelV3 | undefined {
  if (given) return given instanceof OfflineEmbeddingModel ? undefined : given;
  if (settings.embeddingModel?.trim() === "builtin:lexical") return undefined;
  const model = resolvePipelineEmbeddingModel(settings);
  return model instanceof OfflineEmbeddingModel ? undefined : model;
}

/**
 * The value filter's thresholds for a rerank model: the trained offline embedder's cosines between a keyword and a
 * value are lower than a provider's (a misspelt keyword has no word vector, only its spelling block), so it drops a
 * value only below cosine 0.3 unless its spelling is within 0.6 edit similarity; a provider's model gets CHESS's
 * 0.6 and 0.8.
 */
export function valueRerankThresholds(model: EmbeddingModelV3): { minimum: number; keepAboveEditSimilarity: number } {
  return model instanceof WordVectorEmbeddingModel
    ? { minimum: 0.3, keepAboveEditSimilarity: 0.6 }
    : { minimum: 0.6, keepAboveEditSimilarity: 0.8 };
}

/**
 * Retrieval without schema selection, for catalogs shown whole (small, or not indexed): CHESS extract_keywords (by the
 * model when `settings.schemaSelection.extractKeywords`, else the heuristic) → retrieve_entity over `sources`. The
 * values found become their columns' first examples and a hint line that every generator's prompt carries; the
 * catalog itself is passed through whole (no filter_column, select_tables or select_columns call). Named
 * `chess-retrieval`.
 */
export function retrievalOnlySelector(
  settings: Settings,
  sources: RetrievalValueSources,
  embeddingModel?: EmbeddingModelV3,
): SchemaSelector {
  const rerank = valueRerankModel(settings, embeddingModel);
  const selector = createChessSchemaSelector({
    steps: {
      extractKeywords: settings.schemaSelection.extractKeywords,
      filterColumn: false,
      selectTables: false,
      selectColumns: false,
    },
    ...(sources.valueIndex ? { valueIndex: sources.valueIndex } : {}),
    ...(sources.liveValues ? { liveValues: sources.liveValues } : {}),
    ...(sources.liveValueColumns ? { liveValueColumns: sources.liveValueColumns } : {}),
    ...(sources.valueVisibility ? { valueVisibility: sources.valueVisibility } : {}),
    ...(rerank ? { valueEmbeddingModel: rerank, valueEmbeddingThresholds: valueRerankThresholds(rerank) } : {}),
    preselectAboveColumns: Number.POSITIVE_INFINITY,
  });
  return { name: retrievalOnlySelectorName, select: (options) => selector.select(options) };
}

/** The name of `retrievalOnlySelector`'s selector (the CHESS selector with no schema-selection step). */
export const retrievalOnlySelectorName = "chess-retrieval";
