import type { EmbeddingModelV3 } from "@ai-sdk/provider";
import type { LiveValueLookup, SchemaSelector, Settings, ValueIndex, ValueVisibility } from "@nlq/engine";
import { createChessSchemaSelector, resolveEmbeddingModel } from "@nlq/engine";

/** Where a question's values come from (see `RetrieverOptions`). */
export interface RetrievalValueSources {
  readonly valueIndex?: ValueIndex;
  readonly liveValues?: LiveValueLookup;
  readonly liveValueColumns?: ReadonlySet<string>;
  readonly valueVisibility?: ValueVisibility;
}

/**
 * The embedding model of the value hits' rerank: the given one, else `settings.embeddingModel` when one is configured
 * (`NLQ_EMBEDDING_MODEL` other than the built-in offline embedder); none otherwise (edit distance alone, as CHESS
 * without its embedding filter).
 */
export function valueRerankModel(settings: Settings, given?: EmbeddingModelV3): EmbeddingModelV3 | undefined {
  if (given) return given;
  const configured = settings.embeddingModel?.trim() ?? "";
  if (configured === "" || configured.startsWith("builtin")) return undefined;
  return resolveEmbeddingModel(configured, settings);
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
    ...(rerank ? { valueEmbeddingModel: rerank } : {}),
    preselectAboveColumns: Number.POSITIVE_INFINITY,
  });
  return { name: retrievalOnlySelectorName, select: (options) => selector.select(options) };
}

/** The name of `retrievalOnlySelector`'s selector (the CHESS selector with no schema-selection step). */
export const retrievalOnlySelectorName = "chess-retrieval";
