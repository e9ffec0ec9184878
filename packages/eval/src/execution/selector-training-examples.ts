import { type CandidateCluster, type Catalog, pairwiseComparisonPrompt, renderSchema } from "@nlq/engine";
import { type PromptQuestionContext, selectCandidateSystemPrompt } from "@nlq/prompts";
import type { PoolQuestion } from "./candidate-pool";

/** One pairwise example for fine-tuning a selection agent (CHASE-SQL §2.5): the prompt, its label, the two queries. */
export interface SelectorTrainingExample {
  /** `<question id>:<correct candidate>-<incorrect candidate>` (candidate positions in the pool line). */
  readonly id: string;
  readonly question: string;
  /** The `select-candidate` system prompt and prompt, exactly as the pairwise selector sends them. */
  readonly system: string;
  readonly prompt: string;
  /** The correct candidate's side: the expected `{"answer"}` of the model. */
  readonly answer: "A" | "B";
  readonly candidateA: { readonly source: string; readonly sql: string };
  readonly candidateB: { readonly source: string; readonly sql: string };
}

export interface SelectorTrainingOptions {
  readonly question: PoolQuestion;
  /** The question's result clusters (`clusterCandidates`), with whether each representative matches the gold. */
  readonly clusters: readonly CandidateCluster[];
  readonly clusterCorrect: readonly boolean[];
  /** The question's catalog (the schema union is taken from it). */
  readonly catalog: Catalog;
  /** The hint the pairwise selector would show with the question (the user's, plus retrieval's). Default: none. */
  readonly hint?: string;
  /** The question context the pairwise selector would show (`StepContext.questionContext`). Default: none. */
  readonly questionContext?: PromptQuestionContext;
  /** Seeded randomness deciding which side the correct candidate is shown on. */
  readonly random: () => number;
}

/**
 * CHASE-SQL's training tuples (Q, Ci, Cj, Dij, yij): for every pair of a correct and an incorrect cluster of one
 * question, one example comparing their representatives on the union of their schemas, the correct one shown as A or
 * B at random (order bias avoided, as the paper does). Questions whose clusters are all correct or all wrong give none.
 * Needs `loadSqlParser()`.
 */
export function selectorTrainingExamples(options: SelectorTrainingOptions): SelectorTrainingExample[] {
  const { question, clusters, clusterCorrect } = options;
  const schema = renderSchema(options.catalog);
  const examples: SelectorTrainingExample[] = [];
  clusters.forEach((right, rightPosition) => {
    if (!clusterCorrect[rightPosition]) return;
    clusters.forEach((wrong, wrongPosition) => {
      if (clusterCorrect[wrongPosition]) return;
      const correctFirst = options.random() < 0.5;
      const [a, b] = correctFirst
        ? [right.representative, wrong.representative]
        : [wrong.representative, right.representative];
      examples.push({
        id: `${question.id}:${right.representative.index}-${wrong.representative.index}`,
        question: question.question,
        system: selectCandidateSystemPrompt,
        prompt: pairwiseComparisonPrompt({
          catalog: options.catalog,
          schema,
          question: question.question,
          hint: options.hint,
          ...(options.questionContext ? { questionContext: options.questionContext } : {}),
          candidateA: a,
          candidateB: b,
        }),
        answer: correctFirst ? "A" : "B",
        candidateA: { source: a.generator, sql: a.sql },
        candidateB: { source: b.generator, sql: b.sql },
      });
    });
  });
  return examples;
}
