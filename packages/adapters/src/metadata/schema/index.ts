// Every table of the metadata store. drizzle-kit reads the files of this folder (see
// packages/adapters/drizzle.config.ts); the runtime imports this barrel. Add one file per concept and
// one export line here, then run `npm run db:generate -- --name <slug>` from the repository root.
export * from "./catalog";
export * from "./data-sources";
export * from "./embeddings";
export * from "./knowledge";
export * from "./llm-cache";
export * from "./llm-cache-answers";
export * from "./query-log";
export * from "./question-audit";
export * from "./value-index";
export * from "./verified-examples";
export * from "./web-threads";
