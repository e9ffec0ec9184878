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

// demo database
export * from "./demo/index";

// vector-store
export type * from "./vector-store/vector-store";
export type * from "./vector-store/embedded-vector-persistence";
export * from "./vector-store/vector-store-errors";
export * from "./vector-store/create-vector-store";
export * from "./vector-store/embedded-vector-store";
export * from "./vector-store/qdrant-vector-store";
