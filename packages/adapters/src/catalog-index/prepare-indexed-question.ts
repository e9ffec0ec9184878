import type { EmbeddingModelV3 } from "@ai-sdk/provider";
import type {
  Catalog,
  CatalogContextIndex,
  QueryExecutor,
  SchemaSelector,
  Settings,
  TransactionStatus,
  ValueSearch,
  VectorStore,
} from "@nlq/engine";
import {
  catalogCollectionName,
  countColumns,
  createCatalogContextIndex,
  createLiveValueLookup,
  createValueVisibility,
  type LiveValueLookup,
  type LiveValueLookupOptions,
  loadSettings,
  type SchemaSelectionSteps,
  type StoredSampleValues,
  storedSampleValuesOf,
} from "@nlq/engine";
import { count, eq, max } from "drizzle-orm";
import type { QdrantSettings } from "../config/service-settings";
import { embeddingModelIdentity, resolvePipelineEmbeddingModel } from "../embedding/pipeline-embedding-model";
import type { MetadataDatabase } from "../metadata/metadata-database";
import { catalogTables } from "../metadata/schema/catalog";
import type { BackgroundConnection, BackgroundValueIndexSource } from "../value-index/background-value-index";
import { servedDataSourceValueIndex } from "../value-index/served-value-index";
import { createVectorStore } from "../vector-stores/create-vector-store";
import { createMetadataVectorPersistence } from "../vector-stores/metadata-vector-persistence";
import { CatalogIndexStore } from "./catalog-index-store";
import { findIndexedDataSource } from "./find-indexed-data-source";
import { createIndexedSchemaSelector, type IndexedSelectorRankers } from "./indexed-schema-selector";
import { LiveSampleValueCache } from "./live-sample-values";
import { restrictToRole } from "./load-catalog";
import { retrievalOnlySelector } from "./retrieval-only-selector";
import { unindexedSchemaSelector } from "./unindexed-schema-selector";

export interface IndexedQuestionOptions {
  /** The metadata store `nlq index` wrote to. */
  readonly store: { readonly database: MetadataDatabase };
  /** URL of the target database (identifies the data source; the password is never stored). */
  readonly url: string;
  /** The asking user's session (privileges are checked on it). */
  readonly session: QueryExecutor;
  readonly transactionStatus?: TransactionStatus;
  /**
   * The question's pipeline settings (`answerQuestion`'s `settings`), source of the defaults below.
   * Default: `loadSettings({})` (every default).
   */
  readonly settings?: Settings;
  /**
   * Qdrant of the description vectors (`loadServiceSettings(environment).qdrant`, from `NLQ_QDRANT_*`).
   * Default: none, so the vectors embedded in the metadata store.
   */
  readonly qdrant?: QdrantSettings;
  /** Vector store of the description embeddings. Default: `createVectorStore` (Qdrant when `qdrant.url`, else embedded in the metadata store). */
  readonly vectorStore?: VectorStore;
  /**
   * The question's embedding model. Default: `resolvePipelineEmbeddingModel(settings)` (`NLQ_EMBEDDING_MODEL`, else the
   * trained offline embedder). The stored description vectors are searched only when it made all of them.
   */
  readonly embeddingModel?: EmbeddingModelV3;
  /** Selector steps. Default: `settings.schemaSelection` (`NLQ_SCHEMA_SELECTION`, `balanced`). */
  readonly steps?: SchemaSelectionSteps;
  /** Catalogs with at most this many columns skip schema selection. Default `settings.schemaSelectionMinimumColumns` (200). */
  readonly minimumColumns?: number;
  /**
   * Rank columns with the learnt question-only retriever (`createLearnedColumnPreselection`) as part of the narrowing.
   * Default: `settings.learnedRetrieval` (on unless `NLQ_LEARNED_RETRIEVAL=off`).
   */
  readonly learnedRetrieval?: boolean;
  /**
   * CRUSH4SQL's collective retrieval (hallucinate → retrieve `crushBudget` columns) in the retrieval stage, for catalogs
   * above `minimumColumns`. Its retriever embeds the whole indexed catalog once per data source with the offline
   * embedder (as the benchmarks measured it) and is cached with the index; picks the asking role cannot read are
   * dropped, and a failed hallucination falls back to no CRUSH picks. Default: the preset's (`settings.crush`; on in
   * `balanced` and `max`).
   */
  readonly crush?: boolean;
  /** Columns CRUSH keeps per question (B). Default `defaultCrushBudget` (40, the prompt-size benchmark's setting). */
  readonly crushBudget?: number;
  /** Bounds of the live value lookup (`createLiveValueLookup`). Default: its defaults (1 s per table, 2 s in all). */
  readonly liveLookup?: Omit<LiveValueLookupOptions, "session" | "transactionStatus">;
  /**
   * For a database nothing is indexed for: where its value index is built in the background (`indexes`, kept by the
   * long-lived caller), under which `key` (database and role) and over which connection (`connect`, as the asking
   * role). Until it is ready, and without this option, values come from the bounded live lookup on the session.
   * Default none (a one-question process such as `nlq ask` would never see the build finish).
   */
  readonly backgroundValueIndex?: {
    readonly indexes: BackgroundValueIndexSource;
    readonly key: string;
    readonly connect: () => Promise<BackgroundConnection>;
  };
}

/** What to pass to `answerQuestion` (spread it in): the indexed catalog (absent when nothing is indexed) and a selector. */
export interface IndexedQuestion {
  readonly catalog?: Catalog;
  readonly schemaSelector?: SchemaSelector;
}

/**
 * Uses the catalog index when the data source has one: loads the indexed catalog (restricted to the asking role) and,
 * for catalogs above `minimumColumns`, a CHESS schema selector backed by the data source's value index (served by the store) and description
 * vectors (kept in memory per data source, with the indexed catalog, until the index changes); smaller catalogs get the
 * retrieval-only selector (keywords → values), so retrieval runs on every question. When nothing is indexed it returns
 * only that selector (values from a background index or the live lookup), and `answerQuestion` introspects live:
 * `answerQuestion({ ...options, ...(await prepareIndexedQuestion({ store, url, session })) })`.
 */
export async function prepareIndexedQuestion(options: IndexedQuestionOptions): Promise<IndexedQuestion> {
  const settings = options.settings ?? loadSettings({});
  const dataSource = await findIndexedDataSource(options.store.database, options.url);
  const indexed = dataSource ? await cachedIndex(options.store.database, dataSource.id) : undefined;
  if (!dataSource || !indexed || indexed.catalog.tables.length === 0) {
    // Nothing indexed: retrieval still runs, on a background value index or the live lookup until it is ready.
    return { schemaSelector: await unindexedRetrievalSelector(options, settings) };
  }
  const minimumColumns = options.minimumColumns ?? settings.schemaSelectionMinimumColumns;
  // The stored examples were read by the indexing role: a small catalog has them read again under the asking role now
  // (the first rows of each table, as `nlq index` read them: cheaper than probing every stored example); a large one
  // drops them here and the selector checks only those of the tables it shows.
  const catalog = await restrictToRole(indexed.catalog, {
    ...options,
    sampleValues: (readable) => (countColumns(readable) <= minimumColumns ? "live" : "omit"),
    liveSampleValueCache: indexed.liveSampleValues,
  });
  // The promise is cached, so questions arriving together set retrieval up once; a failed one is not kept.
  indexed.retrieval ??= (async () => {
    return {
      vectorStore:
        options.vectorStore ??
        createVectorStore({
          persistence: createMetadataVectorPersistence(options.store.database),
          qdrant: options.qdrant,
        }),
      storedSampleValues: storedSampleValuesOf(indexed.catalog),
    };
  })().catch((error: unknown) => {
    indexed.retrieval = undefined;
    throw error;
  });
  const embeddingModel = options.embeddingModel ?? resolvePipelineEmbeddingModel(settings);
  const { vectorStore, storedSampleValues } = await indexed.retrieval;
  // The value index is served by the store (its published generation, looked up per question: another replica may have
  // published a newer one); nothing of it is loaded here.
  const servedValues = await servedDataSourceValueIndex(options.store.database, dataSource.id);
  // The stored description vectors serve only while the question's embedder made every one of them; otherwise (an
  // index built before the embedder changed, or with --no-embeddings) an in-process index with it stands in, built
  // once per index state, until `nlq index` is run again and re-embeds.
  const identity = embeddingModelIdentity(embeddingModel);
  indexed.storedEmbedders ??= new CatalogIndexStore(options.store.database).embeddingModels(dataSource.id);
  const storedEmbedders = await indexed.storedEmbedders;
  const vectorsFit = storedEmbedders.size === 1 && storedEmbedders.has(identity);
  if (!vectorsFit) {
    indexed.contextIndexes ??= new Map();
    const contextIndexes = indexed.contextIndexes;
    if (!contextIndexes.has(identity))
      contextIndexes.set(
        identity,
        createCatalogContextIndex(indexed.catalog, embeddingModel).catch((error: unknown) => {
          contextIndexes.delete(identity);
          throw error;
        }),
      );
  }
  const contextIndex = vectorsFit ? undefined : await indexed.contextIndexes!.get(identity)!;
  // An index built without values (`nlq index --no-values`) holds none: the live lookup stands in for it.
  const valueSources = valueSourcesOf(
    options,
    servedValues.index === undefined || servedValues.index.columns.length === 0 ? undefined : servedValues.index,
    servedValues.incompleteColumns,
  );
  if (countColumns(catalog) <= minimumColumns) {
    // Small catalogs are shown whole; retrieval (keywords → values) still runs and annotates them.
    return { catalog, schemaSelector: retrievalOnlySelector(settings, valueSources) };
  }
  const schemaSelector = await createIndexedSchemaSelector({
    catalog: indexed.catalog,
    settings,
    rankers: indexed,
    ...(options.steps ? { steps: options.steps } : {}),
    minimumColumns,
    ...(options.learnedRetrieval === undefined ? {} : { learnedRetrieval: options.learnedRetrieval }),
    ...(options.crush === undefined ? {} : { crush: options.crush }),
    ...(options.crushBudget === undefined ? {} : { crushBudget: options.crushBudget }),
    ...valueSources,
    storedSampleValues,
    ...(contextIndex
      ? { contextIndex }
      : { contextVectors: { vectorStore, collection: catalogCollectionName(dataSource.id) } }),
    embeddingModel,
  });
  return { catalog, schemaSelector };
}

/**
 * What to pass to `answerQuestion` without a catalog index (no metadata store, no asking role's URL, or an index lookup
 * that failed: `createQuestionAnswerer`'s `prepare`): the retrieval a database nothing is indexed for gets (keywords →
 * values from the live lookup, or a background index).
 */
export async function prepareUnindexedQuestion(
  options: Pick<
    IndexedQuestionOptions,
    "session" | "transactionStatus" | "settings" | "backgroundValueIndex" | "liveLookup"
  >,
): Promise<IndexedQuestion> {
  return { schemaSelector: await unindexedRetrievalSelector(options, options.settings ?? loadSettings({})) };
}

/** The bounded live value lookup on the asking session. */
function liveLookupOf(
  options: Pick<IndexedQuestionOptions, "session" | "transactionStatus" | "liveLookup">,
): LiveValueLookup {
  return createLiveValueLookup({
    ...options.liveLookup,
    session: options.session,
    transactionStatus: options.transactionStatus,
  });
}

/**
 * For a database nothing is indexed for: the background value index (`backgroundValueIndex`) once it is ready — its
 * truncated columns still looked up live — and the live lookup alone until then (or without a background index);
 * above `NLQ_SCHEMA_SELECTION_MIN_COLUMNS` the catalog is narrowed and selected as an indexed one
 * (`unindexedSchemaSelector`), never sent to the prompt whole.
 */
async function unindexedRetrievalSelector(
  options: Pick<IndexedQuestionOptions, "session" | "transactionStatus" | "backgroundValueIndex" | "liveLookup">,
  settings: Settings,
): Promise<SchemaSelector> {
  const background = options.backgroundValueIndex;
  const state = background ? await background.indexes.use(background.key, background.connect) : undefined;
  return unindexedSchemaSelector(settings, valueSourcesOf(options, state?.index, state?.incompleteColumns));
}

/**
 * Where a question's values come from, every hit checked under the asking session (`valueVisibility`): `valueIndex`
 * when there is one plus the live lookup for the columns it does not hold whole (`liveColumns`), else the live lookup.
 */
function valueSourcesOf(
  options: Pick<IndexedQuestionOptions, "session" | "transactionStatus" | "liveLookup">,
  valueIndex: ValueSearch | undefined,
  liveColumns: ReadonlySet<string> | undefined,
) {
  const valueVisibility = createValueVisibility({
    session: options.session,
    transactionStatus: options.transactionStatus,
  });
  const liveValues = liveLookupOf(options);
  return valueIndex
    ? { valueIndex, liveValues, liveValueColumns: liveColumns ?? new Set<string>(), valueVisibility }
    : { liveValues, valueVisibility };
}

interface IndexedDataSource extends IndexedSelectorRankers {
  /** The embedders that made the stored description vectors (`CatalogIndexStore.embeddingModels`). */
  storedEmbedders?: Promise<Set<string | null>>;
  /** In-process description indexes by embedder, for when the stored vectors are another embedder's. */
  contextIndexes?: Map<string, Promise<CatalogContextIndex>>;
  /** Changes whenever `nlq index` rewrote or removed a table: `<tables>/<latest indexed_at>`. */
  readonly stamp: string;
  /** The whole indexed catalog, before any role's privileges are applied. */
  readonly catalog: Catalog;
  /** Examples read under asking roles for small catalogs (per role, table and columns; dropped with this index state). */
  readonly liveSampleValues: LiveSampleValueCache;
  /**
   * Description vectors and the indexed examples by column (`storedSampleValuesOf`, checked per question under the
   * asking role), set up on the first question (the value index is served by the store, `servedDataSourceValueIndex`).
   */
  retrieval?: Promise<{
    readonly vectorStore: VectorStore;
    readonly storedSampleValues: StoredSampleValues;
  }>;
}

/**
 * What `nlq index` stored for a data source, per metadata database, read again only after the index changed: a
 * question costs one small stamp query here instead of reading the whole catalog (thousands of columns) again.
 */
const indexCache = new WeakMap<object, Map<string, IndexedDataSource>>();

async function cachedIndex(database: MetadataDatabase, dataSourceId: string): Promise<IndexedDataSource> {
  const [row] = await database
    .select({ tables: count(), latest: max(catalogTables.indexedAt) })
    .from(catalogTables)
    .where(eq(catalogTables.dataSourceId, dataSourceId));
  const stamp = `${row?.tables ?? 0}/${row?.latest?.toISOString() ?? ""}`;
  const forDatabase = indexCache.get(database) ?? new Map<string, IndexedDataSource>();
  indexCache.set(database, forDatabase);
  const cached = forDatabase.get(dataSourceId);
  if (cached && cached.stamp === stamp) return cached;
  const fresh: IndexedDataSource = {
    stamp,
    catalog: await new CatalogIndexStore(database).loadCatalog(dataSourceId),
    liveSampleValues: new LiveSampleValueCache(),
  };
  forDatabase.set(dataSourceId, fresh);
  return fresh;
}
