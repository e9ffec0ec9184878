export * from "./catalog-index-store";
export * from "./find-indexed-data-source";
export * from "./index-catalog";
export * from "./load-catalog";
export * from "./progress-line";
export * from "./table-fingerprint";
export * from "./table-statistics";
