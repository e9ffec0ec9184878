export * from "./catalog-collection";
export * from "./catalog-context-index";
export * from "./retrieve-context";
export * from "./sparse-vector-index";
