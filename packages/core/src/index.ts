// Public API of @nlq/core. Each area appends its own exports below its heading.

// errors
export * from "./errors";

// database
export type * from "./database/query-executor";

// pipeline
export type * from "./pipeline/events";
export type * from "./pipeline/answer";

// embedding
export * from "./embedding/offline-embedding-model";
export * from "./embedding/resolve-embedding-model";
export * from "./embedding/vector-math";
export { contentTerms, splitWordPieces, stemWord } from "./embedding/word-pieces";

// metadata store
export * from "./metadata/metadata-database";
export * from "./metadata/metadata-store-error";
export * from "./metadata/migrations-folder";
export * from "./metadata/nlq-home";
export * from "./metadata/open-metadata-store";
export * from "./metadata/query-log-store";
export * from "./metadata/schema/index";
export * from "./metadata/data-source-store";
export * from "./metadata/llm-cache-store";

// retrieval/values (value index, CHESS retrieve_entity)
export * from "./retrieval/values/index";

// demo database
export * from "./demo/index";

// vector-store
export type * from "./vector-store/vector-store";
export type * from "./vector-store/embedded-vector-persistence";
export * from "./vector-store/vector-store-errors";
export * from "./vector-store/create-vector-store";
export * from "./vector-store/embedded-vector-store";
export * from "./vector-store/qdrant-vector-store";
export * from "./vector-store/metadata-vector-persistence";

// core pipeline: settings, models, LLM steps, catalog, schema, SQL, read-only execution, generation, fixing, answerQuestion
export * from "./config/settings";
export * from "./models/model-reference";
export * from "./models/scripted-fixture";
export * from "./models/scripted-model";
export * from "./models/resolve-model";
export * from "./llm/llm-budget";
export * from "./llm/run-step";
export * from "./llm/step-context";
export * from "./catalog/catalog-types";
export * from "./catalog/introspect-catalog";
export * from "./schema/quote-identifier";
export * from "./schema/render-schema";
export * from "./schema/sample-values";
export * from "./sql/validate-sql";
export * from "./database/pg-executor";
export * from "./database/read-only-session";
export * from "./generation/candidate-generator";
export * from "./generation/one-shot-generator";
export * from "./fixing/fix-loop";
export type * from "./pipeline/schema-selector";
export * from "./pipeline/answer-question";
export * from "./database/test-database";
export * from "./llm/recover-json";
export * from "./metadata/directory-lock";

// retrieval/schema (CRUSH, dense baseline)
export * from "./retrieval/schema/catalog-embedding-model";
export * from "./retrieval/schema/crush-objective";
export * from "./retrieval/schema/crush-selection";
export * from "./retrieval/schema/dense-column-ranking";
export * from "./retrieval/schema/hallucinate-schema";
export * from "./retrieval/schema/schema-column";
export * from "./retrieval/schema/schema-graph";
export * from "./retrieval/schema/schema-retriever";

// eval (retrieval recall)
export * from "./eval/retrieval-benchmark-data";
export * from "./eval/retrieval-recall";
export * from "./eval/run-retrieval-benchmark";

// catalog index, catalog files, keywords, retrieve_context, CHESS schema selector
export * from "./catalog-files/index";
export * from "./catalog-index/index";
export * from "./retrieval/keywords/index";
export * from "./retrieval/context/index";
export * from "./schema-selection/index";
