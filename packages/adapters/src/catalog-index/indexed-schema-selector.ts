import type { EmbeddingModelV3 } from "@ai-sdk/provider";
import type {
  Catalog,
  CatalogContextIndex,
  LiveValueLookup,
  SchemaRetriever,
  SchemaSelectionSteps,
  SchemaSelector,
  Settings,
  StoredSampleValues,
  ValueSearch,
  ValueVisibility,
  VectorStore,
} from "@nlq/engine";
import {
  createCatalogSchemaRetriever,
  createChessSchemaSelector,
  createCrushPreselector,
  createLearnedColumnPreselection,
  defaultCrushBudget,
} from "@nlq/engine";
import { resolvePipelineEmbeddingModel } from "../embedding/pipeline-embedding-model";
import { valueRerankModel, valueRerankThresholds } from "./retrieval-only-selector";

/**
 * What the selector builds once per catalog and reuses across questions: the learnt ranking and CRUSH's retriever over
 * the whole indexed catalog. `prepareIndexedQuestion` keeps it with the cached index; a benchmark keeps one per run.
 */
export interface IndexedSelectorRankers {
  rankColumns?: ReturnType<typeof createLearnedColumnPreselection>;
  crushRetriever?: Promise<SchemaRetriever>;
}

/** Options of `createIndexedSchemaSelector`: the catalog index's contents and the question's settings. */
export interface IndexedSchemaSelectorOptions {
  /** The whole indexed catalog, before any role's privileges (CRUSH and the learnt ranking are built over it). */
  readonly catalog: Catalog;
  /** The question's pipeline settings, source of every default below. */
  readonly settings: Settings;
  /** Where the rankers built over `catalog` are kept between questions. Default: a fresh one (built for this call). */
  readonly rankers?: IndexedSelectorRankers;
  /** Selector steps. Default `settings.schemaSelection`. */
  readonly steps?: SchemaSelectionSteps;
  /** Catalogs above this many columns are narrowed by retrieval. Default `settings.schemaSelectionMinimumColumns`. */
  readonly minimumColumns?: number;
  /** Learnt question-only ranking in the narrowing. Default `settings.learnedRetrieval`. */
  readonly learnedRetrieval?: boolean;
  /** CRUSH's collective retrieval in the narrowing. Default `settings.crush`. */
  readonly crush?: boolean;
  /** Columns CRUSH keeps per question (B). Default `defaultCrushBudget`. */
  readonly crushBudget?: number;
  /** The data source's value index. Default none. */
  readonly valueIndex?: ValueSearch;
  /** The bounded live lookup, for the columns the index lacks (`liveValueColumns`, or all without an index). */
  readonly liveValues?: LiveValueLookup;
  readonly liveValueColumns?: ReadonlySet<string>;
  readonly valueVisibility?: ValueVisibility;
  readonly storedSampleValues?: StoredSampleValues;
  /** Description vectors `nlq index` wrote (`embedCatalogContext`), searched by retrieve_context. Default none. */
  readonly contextVectors?: { readonly vectorStore: VectorStore; readonly collection: string };
  /**
   * An in-process description index (`createCatalogContextIndex`), for catalogs whose stored vectors another embedder
   * made (or none were made); used instead of `contextVectors`. Default none.
   */
  readonly contextIndex?: CatalogContextIndex;
  /**
   * The embedding model of every vector here: the description vectors (which `nlq index` made with the same one),
   * CRUSH's probes and the value rerank. Default `resolvePipelineEmbeddingModel(settings)`.
   */
  readonly embeddingModel?: EmbeddingModelV3;
}

/**
 * The CHESS schema selector exactly as questions on an indexed data source get it (the production settings: steps,
 * narrowing threshold, learnt ranking, CRUSH with `defaultCrushBudget` and the pipeline's embedder with the catalog's
 * term weights, description vectors), from what the index holds. `prepareIndexedQuestion` calls it with what it loaded from the metadata store;
 * `runSchemaSelectionBenchmark` (packages/eval) with an in-memory catalog, so the benchmark measures this very path.
 */
export async function createIndexedSchemaSelector(options: IndexedSchemaSelectorOptions): Promise<SchemaSelector> {
  const settings = options.settings;
  const rankers = options.rankers ?? {};
  const learnedRetrieval = options.learnedRetrieval ?? settings.learnedRetrieval;
  if (learnedRetrieval) rankers.rankColumns ??= createLearnedColumnPreselection(options.catalog);
  const crush = options.crush ?? settings.crush;
  const embeddingModel = options.embeddingModel ?? resolvePipelineEmbeddingModel(settings);
  if (crush) {
    rankers.crushRetriever ??= createCatalogSchemaRetriever(options.catalog, embeddingModel).catch((error: unknown) => {
      rankers.crushRetriever = undefined;
      throw error;
    });
  }
  const minimumColumns = options.minimumColumns ?? settings.schemaSelectionMinimumColumns;
  const valueRerank = valueRerankModel(settings, embeddingModel);
  return createChessSchemaSelector({
    steps: options.steps ?? settings.schemaSelection,
    valueIndex: options.valueIndex,
    ...(options.liveValues ? { liveValues: options.liveValues } : {}),
    ...(options.liveValueColumns ? { liveValueColumns: options.liveValueColumns } : {}),
    ...(valueRerank
      ? { valueEmbeddingModel: valueRerank, valueEmbeddingThresholds: valueRerankThresholds(valueRerank) }
      : {}),
    valueVisibility: options.valueVisibility,
    storedSampleValues: options.storedSampleValues,
    ...(learnedRetrieval ? { rankColumns: rankers.rankColumns } : {}),
    ...(crush
      ? {
          preselect: createCrushPreselector({
            retriever: await rankers.crushRetriever!,
            budget: options.crushBudget ?? defaultCrushBudget,
          }),
        }
      : {}),
    // Retrieval narrows (CRUSH, learnt ranking, values, descriptions) every catalog that gets a selector at all.
    preselectAboveColumns: minimumColumns,
    ...(options.contextIndex
      ? { contextIndex: options.contextIndex }
      : options.contextVectors
        ? { contextRetrieval: { ...options.contextVectors, embeddingModel } }
        : {}),
  });
}
