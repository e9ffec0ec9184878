import { selectCandidateOutputSchema, selectCandidateSystemPrompt } from "@nlq/prompts";
import pLimit from "p-limit";
import { ModelOutputError } from "../errors";
import { loadSqlParser } from "../sql/validate-sql";
import { bestCluster } from "./best-cluster";
import type { CandidateSelector, SelectCandidateOptions, SelectionOutcome } from "./candidate-selector";
import { pairwiseComparisonPrompt } from "./pairwise-comparison-prompt";
import { largestCluster } from "./self-consistency-selector";

/** Most clusters k whose pairwise comparisons, k·(k−1) calls, fit in `calls`. */
function affordableClusters(calls: number, clusters: number): number {
  let k = clusters;
  while (k > 1 && k * (k - 1) > calls) k -= 1;
  return k;
}

/**
 * CHASE-SQL's selection agent (Algorithm 3, prompt A.11) over cluster representatives: for every pair of clusters the
 * `select-candidate` model is asked twice, with the two representatives as A/B and as B/A (position bias cancels), on
 * the union of the two queries' tables and columns (`candidateSchemaUnion`; the whole selected schema when that cannot
 * be extracted), each shown with a preview of its result. Each answer gives its winner one point. Pairs of equal
 * results are never asked: they are one cluster. Calls: m·(m−1) for m clusters (`pairwiseCallCount`); one cluster is
 * chosen without a call. Calls run concurrently up to the preset's `concurrency`, each sample number
 * fixed by its pair's position (so a cached or scripted answer does not depend on timing); the budget counts each call
 * before it starts, and the number of clusters compared is fixed beforehand to what the budget can pay for.
 *
 * Winner: most points; ties go to the larger cluster, then to the earlier first member (`bestCluster`).
 * Confidence: the winner's pairwise win rate, points / comparisons it took part in (2·(m−1)).
 *
 * When the question's call budget (`NLQ_MAX_LLM_CALLS`) cannot pay for every comparison, only the k largest clusters
 * are compared (the largest k with k·(k−1) calls left; the basis says so); with fewer than 2 calls left the largest
 * cluster is chosen as self-consistency would, with its share of the candidates as confidence.
 * An answer that does not match the output schema (`ModelOutputError`) gives no point to either side and is counted in
 * the basis; when every answer was unreadable the last error is thrown. Other errors (cancel, budget) are thrown.
 */
export function createPairwiseSelector(options: { readonly previewRows?: number } = {}): CandidateSelector {
  return {
    name: "pairwise",
    async select(selection: SelectCandidateOptions): Promise<SelectionOutcome> {
      const { context } = selection;
      if (selection.clusters.length === 1) {
        return { cluster: selection.clusters[0]!, confidence: 1, basis: "every candidate returned the same result" };
      }
      const affordable = affordableClusters(context.budget.remainingCalls(), selection.clusters.length);
      if (affordable < 2) {
        const cluster = largestCluster(selection.clusters);
        return {
          cluster,
          confidence: cluster.members.length / selection.candidates.length,
          basis: `no model calls left for pairwise comparison; ${cluster.members.length} of ${selection.candidates.length} candidates returned this result (the largest cluster)`,
        };
      }
      const clusters = selection.clusters.slice(0, affordable);
      await loadSqlParser();
      const points = clusters.map(() => 0);
      const unanswered: ModelOutputError[] = [];
      const pairs: Array<readonly [number, number]> = [];
      for (let first = 0; first < clusters.length; first++) {
        for (let second = first + 1; second < clusters.length; second++) {
          pairs.push([first, second], [second, first]);
        }
      }
      const limit = pLimit(context.settings.concurrency);
      await Promise.all(
        pairs.map(([a, b], sample) =>
          limit(async () => {
            context.throwIfCancelled();
            const output = await context
              .runModelStep({
                step: "select-candidate",
                schema: selectCandidateOutputSchema,
                system: selectCandidateSystemPrompt,
                prompt: pairwiseComparisonPrompt({
                  catalog: selection.catalog,
                  schema: selection.schema,
                  question: context.question,
                  hint: context.hint,
                  candidateA: clusters[a]!.representative,
                  candidateB: clusters[b]!.representative,
                  previewRows: options.previewRows,
                }),
                sample,
              })
              .catch((error: unknown) => {
                // One unreadable answer costs that comparison, not the question.
                if (!(error instanceof ModelOutputError)) throw error;
                unanswered.push(error);
                return undefined;
              });
            if (output !== undefined) points[output.answer === "A" ? a : b]! += 1;
          }),
        ),
      );
      const sample = pairs.length;
      const comparisons = 2 * (clusters.length - 1);
      if (unanswered.length === sample) throw unanswered.at(-1)!;
      const { cluster, position } = bestCluster(clusters, (_, index) => points[index]!);
      const skipped = selection.clusters.length - clusters.length;
      return {
        cluster,
        confidence: points[position]! / comparisons,
        basis: `won ${points[position]} of ${comparisons} pairwise comparisons against ${clusters.length - 1} other result clusters${skipped > 0 ? ` (the ${skipped} smallest of ${selection.clusters.length} clusters not compared: call budget)` : ""}${unanswered.length > 0 ? ` (${unanswered.length} of ${sample} answers unreadable, counted for neither)` : ""}`,
      };
    },
  };
}
