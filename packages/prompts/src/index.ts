// Public API of @nlq/prompts: prompt templates as typed functions and their output schemas (zod only). Only what
// other packages use is exported.

export { divideAndConquerPrompt, divideAndConquerSystemPrompt } from "./divide-and-conquer-prompt";
export {
  type ExtractKeywordsExample,
  extractKeywordsOutputSchema,
  extractKeywordsPrompt,
  extractKeywordsSystemPrompt,
} from "./extract-keywords-prompt";
export {
  type FindReadingsOutput,
  findReadingsOutputSchema,
  findReadingsPrompt,
  findReadingsSystemPrompt,
} from "./find-readings-prompt";
export { fixCandidatePrompt, fixCandidateSystemPrompt } from "./fix-candidate-prompt";
export { generateCandidatePrompt, generateCandidateSystemPrompt } from "./generate-candidate-prompt";
export { generateFromExamplesPrompt, generateFromExamplesSystemPrompt } from "./generate-from-examples-prompt";
export type { PromptExample } from "./generation-prompt-sections";
export { queryPlanPrompt, queryPlanSystemPrompt } from "./query-plan-prompt";
export {
  type PromptKnowledge,
  type PromptQuestionContext,
  renderKnowledgeLine,
  renderQuestionContext,
} from "./question-context-section";
export {
  type HallucinatedColumn,
  parseHallucinatedSchema,
  type SchemaHallucinationExample,
  schemaHallucinationOutputSchema,
  schemaHallucinationPrompt,
  schemaHallucinationSystemPrompt,
} from "./schema-hallucination-prompt";
export {
  filterColumnOutputSchema,
  filterColumnPrompt,
  schemaSelectionSystemPrompt,
  selectColumnsOutputSchema,
  selectColumnsPrompt,
  selectTablesOutputSchema,
  selectTablesPrompt,
} from "./schema-selection-prompts";
export {
  selectCandidateOutputSchema,
  selectCandidatePrompt,
  selectCandidateSystemPrompt,
} from "./select-candidate-prompt";
export { sqlCandidateOutputSchema } from "./sql-candidate-output";
export {
  maxAnswerSentenceLength,
  summarizeAnswerOutputSchema,
  summarizeAnswerPrompt,
  summarizeAnswerSystemPrompt,
} from "./summarize-answer-prompt";
export {
  synthesizedExamplesOutputSchema,
  synthesizeExamplesPrompt,
  synthesizeExamplesSystemPrompt,
} from "./synthesize-examples-prompt";
export {
  evaluateUnitTestOutputSchema,
  evaluateUnitTestPrompt,
  generateUnitTestsOutputSchema,
  generateUnitTestsPrompt,
  unitTestSystemPrompt,
} from "./unit-test-prompts";
