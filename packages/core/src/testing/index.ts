// Test helpers of @nlq/core, imported as `@nlq/core/testing` (kept out of the main entry: they load `ai/test`).

export * from "./catalog-table";
export * from "./mock-text-model";
