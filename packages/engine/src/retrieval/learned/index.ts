export * from "./default-learned-model";
export * from "./learned-column-ranker";
export * from "./learned-features";
export * from "./learned-question-ranking";
export * from "./learned-retrieval-model";
export * from "./schema-term-coverage";
export * from "./structure-expansion";
export * from "./value-vote-fusion";
