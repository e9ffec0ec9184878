// Public API of @nlq/engine: the pure pipeline (stages, events, errors, step registry, settings). It depends on the
// AI SDK, zod, libpg-query and @nlq/prompts, never on a database driver. Only what other packages use is exported,
// and the errors its functions throw (SessionResidueError, InterpretationNotFoundError), which callers check.

export { type Catalog, countColumns, type TableInfo, type TableKind, tableKey } from "./catalog/catalog-types";
export { introspectCatalog } from "./catalog/introspect-catalog";
export {
  configurationVariableNames,
  DEFAULT_MAX_QUESTION_LENGTH,
  environmentSchema,
  type ParsedEnvironment,
  parseEnvironment,
} from "./config/environment-schema";
export { builtInPresetNames, builtInPresets } from "./config/presets";
export { type SchemaSelectionSteps, schemaSelectionPresets } from "./config/schema-selection-steps";
export { loadSettings, type Settings } from "./config/settings";
export {
  optionalPortVariable,
  optionalWholeNumberVariable,
  parsedVariable,
  portVariable,
  switchVariable,
  textVariable,
  urlVariable,
  wholeNumberVariable,
} from "./config/variable-schemas";
export type {
  Answer,
  AnswerSummary,
  CandidateRecord,
  ConversationTurn,
  QueryLog,
  QueryLogEntry,
  SelectionSummary,
  VerifiedExample,
} from "./contract/answer";
export type { LlmCallRecord, PipelineEvent } from "./contract/events";
export type { Interpretation } from "./contract/interpretation";
export type {
  ConfirmedReading,
  KnowledgeEntry,
  KnowledgeKind,
  KnowledgeOrigin,
  KnowledgeUsed,
  ReadingChoice,
} from "./contract/knowledge";
export type { FollowedConfirmation, QuestionReading, ReadingKind } from "./contract/reading";
export type {
  QueryExecutor,
  QueryOptions,
  QueryResult,
  ResultField,
  TransactionStatus,
} from "./database/query-executor";
export {
  queryWithRowLimit,
  type ReadOnlyQuery,
  runReadOnly,
  type TruncationReason,
} from "./database/read-only-session";
export { ResultByteBudget } from "./database/result-byte-budget";
export {
  createOfflineEmbeddingModel,
  OfflineEmbeddingModel,
  offlineEmbeddingModelId,
  termWeightsFromTexts,
} from "./embedding/offline-embedding-model";
export {
  builtinEmbeddingReferences,
  isBuiltinEmbeddingReference,
  resolveEmbeddingModel,
} from "./embedding/resolve-embedding-model";
export type { Vector } from "./embedding/vector-math";
export { identifierAbbreviations, vectorWords } from "./embedding/vector-words";
export {
  createWordVectorEmbeddingModel,
  defaultFrequencyWeight,
  defaultLexicalShare,
  WordVectorEmbeddingModel,
  type WordVectorEmbeddingOptions,
  wordVectorModelId,
} from "./embedding/word-vector-embedding-model";
export { createWordVectors, type WordVectors } from "./embedding/word-vectors";
export { CancelledError } from "./errors/cancelled-error";
export { ConfigurationError } from "./errors/configuration-error";
export { DatabaseError, SessionResidueError } from "./errors/database-errors";
export { ModelCallError, ModelConfigurationError } from "./errors/model-errors";
export { NlqError } from "./errors/nlq-error";
export { QuestionSyntaxError, QuestionTooLongError, UnanswerableQuestionError } from "./errors/question-errors";
export { readableExamples } from "./examples/readable-examples";
export { similarExamples } from "./examples/similar-examples";
export { extractSql } from "./generation/extract-sql";
export {
  type AnswerWithInterpretationOptions,
  answerWithInterpretation,
} from "./interpretations/answer-with-interpretation";
export { type ComparedReading, describeDifference } from "./interpretations/describe-difference";
export { InterpretationNotFoundError } from "./interpretations/interpretation-errors";
export { describeKnowledgeUsed } from "./knowledge/describe-knowledge-used";
export { knowledgeSqlNames, SqlParserNotLoadedError } from "./knowledge/knowledge-sql-names";
export { knowledgeReferences, readableElementNames, readableKnowledge } from "./knowledge/readable-knowledge";
export type { CachedLlmResponse, LlmCallKey, LlmResponseCache } from "./llm/llm-response-cache";
export { createStepContext } from "./llm/step-context";
export { type ResolvedModel, resolveStepModel } from "./models/resolve-model";
export { readScriptedFixture } from "./models/scripted-fixture";
export { answerQuestion } from "./pipeline/answer-question";
export type { AnswerQuestionOptions } from "./pipeline/answer-question-options";
export { describeSelection } from "./pipeline/describe-selection";
export { checkQuestionLength } from "./pipeline/question-length";
export type { SchemaSelector } from "./pipeline/schema-selector";
export { writeQuestionCandidates } from "./pipeline/write-question-candidates";
export { describeProgressStep } from "./progress/describe-progress-step";
export { type ProgressStep, progressStepLine } from "./progress/progress-step";
export { seededRandom } from "./random/seeded-random";
export { findAmbiguities, type PlanReadingsOptions, planReadings, type ReadingPlan } from "./readings/plan-readings";
export { catalogCollectionName, columnPointId, tablePointId } from "./retrieval/context/catalog-collection";
export {
  type CatalogContextIndex,
  columnContextText,
  createCatalogContextIndex,
  tableContextText,
} from "./retrieval/context/catalog-context-index";
export { retrieveContext } from "./retrieval/context/retrieve-context";
export { catalogEmbeddingModel, createCatalogEmbeddingModel } from "./retrieval/crush/catalog-embedding-model";
export {
  createCatalogSchemaRetriever,
  createCrushPreselector,
  defaultCrushBudget,
} from "./retrieval/crush/crush-preselector";
export {
  type CrushSelectionOptions,
  crushProbeVector,
  crushSettings,
  paperCrushSettings,
} from "./retrieval/crush/crush-selection";
export { ColumnVectorIndex } from "./retrieval/crush/dense-column-ranking";
export { type SchemaColumn, schemaColumnKey, schemaColumnText } from "./retrieval/crush/schema-column";
export { buildSchemaGraph, inferKeyLinks } from "./retrieval/crush/schema-graph";
export {
  type CrushProbe,
  crushProbeText,
  defaultProbeQuestionWeight,
  embedTexts,
  hallucinatedElementText,
  rankCollectively,
  type SchemaRetriever,
} from "./retrieval/crush/schema-retriever";
export { heuristicKeywords } from "./retrieval/keywords/heuristic-keywords";
export { defaultLearnedRetrievalModel, readLearnedRetrievalModel } from "./retrieval/learned/default-learned-model";
export { createLearnedColumnPreselection } from "./retrieval/learned/learned-column-preselection";
export { type CandidateFeatures, LearnedColumnRanker } from "./retrieval/learned/learned-column-ranker";
export { denseFeatureNames, questionTerms } from "./retrieval/learned/learned-features";
export { createQuestionColumnRanking } from "./retrieval/learned/learned-question-ranking";
export {
  type LearnedRetrievalModel,
  learnedModelToJson,
  learnedRetrievalModelFormat,
  parseLearnedRetrievalModel,
} from "./retrieval/learned/learned-retrieval-model";
export type { ColumnValueHit, ValueVoteFusionOptions } from "./retrieval/learned/value-vote-fusion";
export { type ColumnSegment, hashColumnSegment } from "./retrieval/values/column-segment";
export { editSimilarity } from "./retrieval/values/edit-similarity";
export {
  createLiveValueLookup,
  type KeywordCandidates,
  type LiveValueLookup,
  type LiveValueLookupOptions,
} from "./retrieval/values/live-value-lookup";
export { liveLookupColumns } from "./retrieval/values/live-value-statement";
export {
  DEFAULT_LSH_PARAMETERS,
  describeSCurve,
  type LshParameters,
  lshParametersKey,
} from "./retrieval/values/min-hash";
export { normalizeValue } from "./retrieval/values/normalize-value";
export {
  phraseSimilarity,
  schemaNameWords,
  typoSimilarity,
  valuesWorthShowing,
} from "./retrieval/values/question-phrase-match";
export { readableColumnKeys } from "./retrieval/values/readable-columns";
export { retrieveEntities } from "./retrieval/values/retrieve-entities";
export { columnKey, type ReadableColumns, readablePredicate, type ValueColumn } from "./retrieval/values/value-column";
export type { ValueCandidate, ValueIndex } from "./retrieval/values/value-index";
export { ValueIndexBuilder } from "./retrieval/values/value-index-builder";
export { ValueIndexError } from "./retrieval/values/value-index-error";
export {
  type CollidingValue,
  type KeywordBandProbes,
  type KeywordSearchOptions,
  keywordBandProbes,
  rankValueCandidates,
  type ValueSearch,
} from "./retrieval/values/value-search";
export {
  type ColumnForSelection,
  columnSkipReason,
  DEFAULT_VALUE_SELECTION_OPTIONS,
  selectColumnValues,
  type ValueSelectionOptions,
} from "./retrieval/values/value-selection";
export { escapedStringLiteral } from "./retrieval/values/value-visibility-statement";
export { createValueVisibility, type ValueVisibility, visibleValues } from "./retrieval/values/visible-values";
export { renderSchema } from "./schema/render-schema";
export { fetchSampleValues, isStoredTable } from "./schema/sample-values";
export { keepVisibleSampleValues, sampleValueProbes, withoutSampleValues } from "./schema/visible-sample-values";
export { createChessSchemaSelector } from "./schema-selection/chess-schema-selector";
export { type StoredSampleValues, storedSampleValuesOf } from "./schema-selection/stored-sample-values";
export type { CandidateCluster, ExecutedCandidate } from "./selection/candidate-selector";
export { clusterCandidates } from "./selection/cluster-candidates";
export { normalizedSqlKey } from "./selection/normalize-sql";
export { type PairwiseCallCount, pairwiseCallCount } from "./selection/pairwise-call-count";
export { pairwiseComparisonPrompt } from "./selection/pairwise-comparison-prompt";
export { type ComparableResult, compareResults } from "./selection/result-comparison";
export { candidateSelector, type SelectorName } from "./selection/selector-registry";
export { largestCluster } from "./selection/self-consistency-selector";
export { ordersAtTopLevel } from "./selection/top-level-order";
export type { FunctionPolicy } from "./sql/function-policy";
export { createFunctionPolicyCache, sharedFunctionPolicyCache } from "./sql/function-policy-cache";
export { loadFunctionPolicy } from "./sql/load-function-policy";
export { alwaysQuoteIdentifier, quoteIdentifier } from "./sql/quote-identifier";
export { loadSqlParser, validateSql } from "./sql/validate-sql";
export { mayReadValues, valueReadPolicy } from "./sql/value-read-policy";
export { pipelineSteps } from "./steps/step-registry";
export { quotedPrefix, textPrefix } from "./text/quoted-prefix";
export type { EmbeddedVectorPersistence, PersistedVectorPoint } from "./vector-store/embedded-vector-persistence";
export { createEmbeddedVectorStore } from "./vector-store/embedded-vector-store";
export { dotProductAt, normalizeVector } from "./vector-store/vector-math";
export type {
  CollectionOptions,
  CountOptions,
  DeleteOptions,
  EnsureCollectionOptions,
  SearchOptions,
  UpsertOptions,
  VectorFilter,
  VectorPayload,
  VectorPoint,
  VectorSearchResult,
  VectorStore,
} from "./vector-store/vector-store";
export {
  VectorCollectionNotFoundError,
  VectorDimensionError,
  VectorStoreError,
} from "./vector-store/vector-store-errors";
export {
  assertCollectionName,
  assertDimensions,
  assertLimit,
  assertVectorLength,
} from "./vector-store/vector-store-validation";
