// Public API of @nlq/adapters: I/O behind the engine's interfaces (node-postgres executor, embedded PostgreSQL,
// metadata store with drizzle, catalog index, value-index store, vector-store backends). Only what others use.

export { auditEntries } from "./audit/audit-entries";
export type { AuditedOutcome, AuditedPick, QuestionAsker } from "./audit/audit-row";
export { dataSourceKey, dataSourceNames } from "./audit/data-source-key";
export { QuestionAuditTrail } from "./audit/question-audit-trail";
export { administratorSql, roleAuthority } from "./audit/role-authority";
export { type SessionAuthorityOptions, sessionAuthority } from "./audit/session-authority";
export type { ExternalDescriptions } from "./catalog-files/external-descriptions";
export { parseCsv } from "./catalog-files/parse-csv";
export { parseCsvRecords } from "./catalog-files/parse-csv-records";
export { readCatalogFiles } from "./catalog-files/read-catalog-files";
export { embedCatalogContext } from "./catalog-index/catalog-context-vectors";
export { type CatalogIndexProgress, indexCatalog } from "./catalog-index/index-catalog";
export { createIndexedSchemaSelector, type IndexedSelectorRankers } from "./catalog-index/indexed-schema-selector";
export { loadCatalog } from "./catalog-index/load-catalog";
export { openQuestionMetadataStore } from "./catalog-index/open-question-metadata-store";
export { formatProgressBar, formatProgressLine } from "./catalog-index/progress-line";
export {
  createQuestionAnswerer,
  type QuestionAnswerer,
  type QuestionAnswererOptions,
} from "./catalog-index/question-answerer";
export {
  loadServiceSettings,
  postgresUrlVariable,
  type QdrantSettings,
  type ServiceSettings,
  serviceSettingsFrom,
  serviceVariables,
} from "./config/service-settings";
export { type EmbeddedPostgres, startEmbeddedPostgres } from "./embedded-postgres/embedded-postgres-server";
export { ensureDatabase } from "./embedded-postgres/ensure-database";
export { passwordFile, type ServerPassword } from "./embedded-postgres/server-password";
export { runningServer } from "./embedded-postgres/server-status";
export { loadOfflineWordVectors, wordVectorCacheDirectories } from "./embedding/offline-word-vectors";
export { embeddingModelIdentity, resolvePipelineEmbeddingModel } from "./embedding/pipeline-embedding-model";
export { locateWordVectorPackage, wordVectorSource } from "./embedding/word-vector-package";
export { WordVectorsError } from "./embedding/word-vectors-error";
export {
  DatabaseElements,
  type DatabaseTable,
  definitionName,
  formatKnowledgeYaml,
  glossaryKnowledge,
  type ImportedKnowledge,
  type ImportedKnowledgeEntry,
  importKnowledgeFile,
  type KnowledgeFileFormat,
  type KnowledgeFileImport,
  KnowledgeImportError,
  knowledgeFileFormat,
  parseDbtManifest,
  parseKnowledgeYaml,
  splitDefinitions,
  type UnmatchedKnowledge,
  withDistinctNames,
  type YamlKnowledgeEntry,
  yamlKnowledgeKinds,
} from "./knowledge-import";
export { type AnsweredQuestion, answerCacheKey } from "./metadata/answer-cache-key";
export {
  type ConfirmedReadingRecords,
  type ConfirmReadingOptions,
  confirmedReadingText,
  confirmReading,
  pickedProvenance,
} from "./metadata/confirm-reading";
export { ensureDataSource } from "./metadata/data-source-store";
export {
  type KnowledgeEntryContent,
  knowledgeKinds,
  knowledgeLimits,
  knowledgeOrigins,
} from "./metadata/knowledge-entry-input";
export { type KnowledgeEntryView, knowledgeEntryOf, knowledgeEntryView } from "./metadata/knowledge-entry-view";
export { KnowledgeConflictError, KnowledgeEntryError } from "./metadata/knowledge-errors";
export {
  type KnowledgeEntryForRoleOptions,
  type KnowledgeForRoleOptions,
  knowledgeEntryForRole,
  knowledgeForRole,
} from "./metadata/knowledge-for-role";
export {
  type KnowledgeChange,
  type KnowledgeHistoryForRoleOptions,
  knowledgeHistoryForRole,
} from "./metadata/knowledge-history-for-role";
export {
  type KnowledgeEditor,
  type KnowledgeSaveAction,
  KnowledgeStore,
  type KnowledgeSyncCounts,
  type NewKnowledgeEntry,
} from "./metadata/knowledge-store";
export { MetadataLlmCache, type MetadataLlmCacheOptions } from "./metadata/llm-cache-store";
export type { MetadataDatabase } from "./metadata/metadata-database";
export { metadataMigrationsFolder } from "./metadata/migrations-folder";
export { nlqStateDirectory } from "./metadata/nlq-home";
export {
  EMBEDDED_METADATA_DATABASE,
  type MetadataStore,
  openMetadataStore,
  redactUrl,
} from "./metadata/open-metadata-store";
export { ensurePrivateDatabase } from "./metadata/private-database";
export {
  type RememberedPick,
  type RememberPickedReadingOptions,
  rememberPickedReading,
} from "./metadata/remember-picked-reading";
export type { KnowledgeEntryRow, KnowledgeHistoryRow } from "./metadata/schema/knowledge";
export type { QuestionAuditRow } from "./metadata/schema/question-audit";
export type { VerifiedExampleRow } from "./metadata/schema/verified-examples";
export {
  type NewVerifiedExample,
  type VerifiedExampleSource,
  VerifiedExampleStore,
} from "./metadata/verified-example-store";
export { verifiedExamplesForRole } from "./metadata/verified-examples-for-role";
export { type ThreadOwner, WebThreadStore } from "./metadata/web-thread-store";
export { createPgExecutor } from "./postgres/pg-executor";
export { startTracing, type TracingHandle } from "./telemetry/start-tracing";
export { BackgroundValueIndexes } from "./value-index/background-value-index";
export { backgroundIndexKey, connectBackground } from "./value-index/connect-background";
export { StoredBackgroundValueIndexes } from "./value-index/stored-background-value-index";
export { StoredValueIndex } from "./value-index/stored-value-index";
export {
  backgroundGenerationKey,
  publishValueIndexGeneration,
} from "./value-index/value-index-generation";
export { acquireValueIndexLease } from "./value-index/value-index-lease";
export { ValueIndexStore } from "./value-index/value-index-store";
export { createVectorStore } from "./vector-stores/create-vector-store";
export { createMetadataVectorPersistence } from "./vector-stores/metadata-vector-persistence";
