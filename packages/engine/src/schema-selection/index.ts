export * from "../retrieval/crush/crush-preselector";
export * from "./chess-schema-selector";
export * from "./column-selection";
export * from "./learned-column-preselection";
export * from "./schema-selection-steps";
export * from "./stored-sample-values";
