export * from "./catalog-collection";
export * from "./retrieve-context";
