import { type PromptQuestionContext, selectCandidatePrompt } from "@nlq/prompts";
import type { Catalog } from "../catalog/catalog-types";
import { renderSchema } from "../schema/render-schema";
import { candidateSchemaUnion } from "./candidate-schema-union";
import type { ExecutedCandidate } from "./candidate-selector";
import { resultPreview } from "./result-preview";

export interface PairwiseComparisonPromptOptions {
  /** The selected catalog; the prompt shows the union of the two queries' tables and columns from it. */
  readonly catalog: Catalog;
  /** Rendered schema shown when the union cannot be extracted (a query the parser rejects, no catalog table named). */
  readonly schema: string;
  readonly question: string;
  readonly hint?: string;
  /** The knowledge retrieved for the question and the session's date (`StepContext.questionContext`). */
  readonly questionContext?: PromptQuestionContext;
  readonly candidateA: ExecutedCandidate;
  readonly candidateB: ExecutedCandidate;
  /** Result rows shown per candidate. Default `defaultPreviewRows`. */
  readonly previewRows?: number;
}

/**
 * The one `select-candidate` prompt for candidates A and B (A.11 adapted): the schema union of the two queries
 * (`candidateSchemaUnion`), each query with a preview of its result. The pairwise selector asks it at answer time and
 * the selection-agent training data (`nlq eval --selector-data`) records it, so a fine-tuned selector sees the same
 * text. Needs `loadSqlParser()`.
 */
export function pairwiseComparisonPrompt(options: PairwiseComparisonPromptOptions): string {
  const union = candidateSchemaUnion(options.catalog, [options.candidateA.sql, options.candidateB.sql]);
  const shown = (candidate: ExecutedCandidate) => ({
    sql: candidate.sql,
    result: resultPreview(candidate.result, options.previewRows),
  });
  return selectCandidatePrompt({
    schema: union === undefined ? options.schema : renderSchema(union),
    question: options.question,
    hint: options.hint,
    ...(options.questionContext ? { questionContext: options.questionContext } : {}),
    candidateA: shown(options.candidateA),
    candidateB: shown(options.candidateB),
  });
}
