import {
  evaluateUnitTestOutputSchema,
  extractKeywordsOutputSchema,
  filterColumnOutputSchema,
  findReadingsOutputSchema,
  generateUnitTestsOutputSchema,
  schemaHallucinationOutputSchema,
  selectCandidateOutputSchema,
  selectColumnsOutputSchema,
  selectTablesOutputSchema,
  sqlCandidateOutputSchema,
  summarizeAnswerOutputSchema,
  synthesizedExamplesOutputSchema,
} from "@nlq/prompts";
import type { z } from "zod";
import type { StepName } from "./step-registry";

/**
 * The output schema of every pipeline step, as its caller passes it to `runModelStep`: the one list the provider
 * contract tests walk, so a new step's schema is checked against every provider's structured-output rules.
 */
export const stepOutputSchemas = {
  "extract-keywords": extractKeywordsOutputSchema,
  "hallucinate-schema": schemaHallucinationOutputSchema,
  "filter-column": filterColumnOutputSchema,
  "select-tables": selectTablesOutputSchema,
  "select-columns": selectColumnsOutputSchema,
  "find-readings": findReadingsOutputSchema,
  "generate-candidate": sqlCandidateOutputSchema,
  "generate-divide-and-conquer": sqlCandidateOutputSchema,
  "generate-query-plan": sqlCandidateOutputSchema,
  "synthesize-examples": synthesizedExamplesOutputSchema,
  "generate-from-examples": sqlCandidateOutputSchema,
  "fix-candidate": sqlCandidateOutputSchema,
  "select-candidate": selectCandidateOutputSchema,
  "generate-unit-tests": generateUnitTestsOutputSchema,
  "evaluate-unit-tests": evaluateUnitTestOutputSchema,
  "summarize-answer": summarizeAnswerOutputSchema,
} as const satisfies Record<StepName, z.ZodType>;
