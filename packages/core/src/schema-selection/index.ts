export * from "./chess-schema-selector";
export * from "./column-selection";
export * from "./create-selector-for-data-source";
export * from "./crush-preselector";
export * from "./learned-column-preselection";
export * from "./schema-selection-steps";
export * from "./stored-sample-values";
export * from "./with-catalog-index";
