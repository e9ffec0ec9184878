export * from "./chess-schema-selector";
export * from "./column-selection";
export * from "./schema-selection-steps";
export * from "./stored-sample-values";
