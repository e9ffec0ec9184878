export * from "../config/schema-selection-steps";
export * from "./chess-schema-selector";
export * from "./column-selection";
export * from "./stored-sample-values";
