// Public API of @nlq/prompts: prompt templates as typed functions and their output schemas (zod only).

export * from "./extract-keywords-prompt";
export * from "./fix-candidate-prompt";
export * from "./generate-candidate-prompt";
export * from "./schema-hallucination-prompt";
export * from "./schema-selection-prompts";
export * from "./select-candidate-prompt";
export * from "./sql-candidate-output";
export * from "./unit-test-prompts";
