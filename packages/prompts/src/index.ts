// Public API of @nlq/prompts: prompt templates as typed functions and their output schemas (zod only).

export * from "./divide-and-conquer-prompt";
export * from "./extract-keywords-prompt";
export * from "./fix-candidate-prompt";
export * from "./generate-candidate-prompt";
export * from "./generate-from-examples-prompt";
export * from "./generation-prompt-sections";
export * from "./query-plan-prompt";
export * from "./schema-hallucination-prompt";
export * from "./schema-selection-prompts";
export * from "./select-candidate-prompt";
export * from "./sql-candidate-output";
export * from "./summarize-answer-prompt";
export * from "./synthesize-examples-prompt";
export * from "./unit-test-prompts";
