import { selectCandidateOutputSchema, selectCandidatePrompt, selectCandidateSystemPrompt } from "@nlq/prompts";
import { renderSchema } from "../schema/render-schema";
import { loadSqlParser } from "../sql/validate-sql";
import { bestCluster } from "./best-cluster";
import { candidateSchemaUnion } from "./candidate-schema-union";
import type { CandidateSelector, SelectCandidateOptions, SelectionOutcome } from "./candidate-selector";
import { resultPreview } from "./result-preview";

/**
 * CHASE-SQL's selection agent (Algorithm 3, prompt A.11) over cluster representatives: for every pair of clusters the
 * `select-candidate` model is asked twice, with the two representatives as A/B and as B/A (position bias cancels), on
 * the union of the two queries' tables and columns (`candidateSchemaUnion`; the whole selected schema when that cannot
 * be extracted), each shown with a preview of its result. Each answer gives its winner one point. Pairs of equal
 * results are never asked: they are one cluster. Calls: m·(m−1) for m clusters (`pairwiseCallCount`); one cluster is
 * chosen without a call. Calls of one question run one after another (the budget counts each before it starts).
 *
 * Winner: most points; ties go to the larger cluster, then to the earlier first member (`bestCluster`).
 * Confidence: the winner's pairwise win rate, points / comparisons it took part in (2·(m−1)).
 */
export function createPairwiseSelector(options: { readonly previewRows?: number } = {}): CandidateSelector {
  return {
    name: "pairwise",
    async select(selection: SelectCandidateOptions): Promise<SelectionOutcome> {
      const { clusters, context } = selection;
      if (clusters.length === 1) {
        return { cluster: clusters[0]!, confidence: 1, basis: "every candidate returned the same result" };
      }
      await loadSqlParser();
      const shown = clusters.map((cluster) => ({
        sql: cluster.representative.sql,
        result: resultPreview(cluster.representative.result, options.previewRows),
      }));
      const points = clusters.map(() => 0);
      let sample = 0;
      for (let first = 0; first < clusters.length; first++) {
        for (let second = first + 1; second < clusters.length; second++) {
          const union = candidateSchemaUnion(selection.catalog, [shown[first]!.sql, shown[second]!.sql]);
          const schema = union === undefined ? selection.schema : renderSchema(union);
          for (const [a, b] of [
            [first, second],
            [second, first],
          ] as const) {
            context.throwIfCancelled();
            const output = await context.runModelStep({
              step: "select-candidate",
              schema: selectCandidateOutputSchema,
              system: selectCandidateSystemPrompt,
              prompt: selectCandidatePrompt({
                schema,
                question: context.question,
                hint: context.hint,
                candidateA: shown[a]!,
                candidateB: shown[b]!,
              }),
              sample: sample++,
            });
            points[output.answer === "A" ? a : b]! += 1;
          }
        }
      }
      const { cluster, position } = bestCluster(clusters, (_, index) => points[index]!);
      const comparisons = 2 * (clusters.length - 1);
      return {
        cluster,
        confidence: points[position]! / comparisons,
        basis: `won ${points[position]} of ${comparisons} pairwise comparisons against ${clusters.length - 1} other result clusters`,
      };
    },
  };
}
