import { selectCandidateOutputSchema, selectCandidateSystemPrompt } from "@nlq/prompts";
import pLimit from "p-limit";
import { isDegradableStepFailure } from "../llm/step-failure";
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
 * Scores, as Algorithm 3 gives them to candidates: over every ordered pair of candidates (c_i, c_j), i ≠ j, c_i wins a
 * point when their results are equal, else the selection model's choice between them does. Comparing representatives
 * stands for comparing every member of the two clusters, so each member of cluster X scores
 *   (|X| − 1)                          — one point per other member of X, the pairs that agree with it, plus
 *   Σ over other clusters Y of |Y|·w   — w = how many of the two orders (X as A, X as B) X's representative won.
 * Winner: the highest score; ties go to the larger cluster, then to the earlier first member (`bestCluster`).
 * Confidence: the winner's score over the most it could have scored, (|X| − 1) + 2·Σ|Y| (every comparison won): 1
 * when it won every comparison, its share otherwise (a failed comparison counts as lost).
 *
 * When the question's call budget (`NLQ_MAX_LLM_CALLS`) cannot pay for every comparison, only the k largest clusters
 * are compared (the largest k with k·(k−1) calls left; the basis says so); with fewer than 2 calls left the largest
 * cluster is chosen as self-consistency would, with its share of the candidates as confidence.
 * An answer that is unreadable, refused, or cut by the deadline (`isDegradableStepFailure`) gives no point to either
 * side and is counted in the basis; when every answer failed the last error is thrown. The client's cancel is thrown.
 */
/**
 * Each cluster's per-candidate score under CHASE-SQL's Algorithm 3: one point per other member (equal results) plus,
 * for every other cluster, its size times the orders this cluster's representative won against it.
 */
function algorithm3Scores(
  clusters: readonly { readonly members: readonly unknown[] }[],
  wins: readonly (readonly number[])[],
): number[] {
  return clusters.map((cluster, x) => {
    let score = cluster.members.length - 1;
    for (const [y, other] of clusters.entries()) if (y !== x) score += other.members.length * (wins[x]?.[y] ?? 0);
    return score;
  });
}

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
      // Orders each cluster's representative won, by opponent: wins[x][y].
      const wins = clusters.map(() => clusters.map(() => 0));
      const unanswered: unknown[] = [];
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
                  ...(context.questionContext ? { questionContext: context.questionContext } : {}),
                  candidateA: clusters[a]!.representative,
                  candidateB: clusters[b]!.representative,
                  previewRows: options.previewRows,
                }),
                sample,
              })
              .catch((error: unknown) => {
                // One unreadable or refused answer costs that comparison, not the question.
                if (!isDegradableStepFailure(error, context)) throw error;
                unanswered.push(error);
                return undefined;
              });
            if (output !== undefined) {
              const [winner, loser] = output.answer === "A" ? [a, b] : [b, a];
              wins[winner]![loser]! += 1;
            }
          }),
        ),
      );
      const sample = pairs.length;
      const comparisons = 2 * (clusters.length - 1);
      if (unanswered.length === sample) throw unanswered.at(-1)!;
      const scores = algorithm3Scores(clusters, wins);
      const { cluster, position } = bestCluster(clusters, (_, index) => scores[index]!);
      const compared = clusters.reduce((sum, each) => sum + each.members.length, 0);
      const agreeing = cluster.members.length - 1;
      const possible = agreeing + 2 * (compared - cluster.members.length);
      const won = wins[position]!.reduce((sum, orders) => sum + orders, 0);
      const skipped = selection.clusters.length - clusters.length;
      return {
        cluster,
        confidence: possible > 0 ? scores[position]! / possible : 0,
        basis: `won ${won} of ${comparisons} pairwise comparisons against ${clusters.length - 1} other result clusters; CHASE-SQL Alg. 3 score ${scores[position]} of ${possible}${agreeing > 0 ? `, ${agreeing} from candidates with the same result` : ""}${skipped > 0 ? ` (the ${skipped} smallest of ${selection.clusters.length} clusters not compared: call budget)` : ""}${unanswered.length > 0 ? ` (${unanswered.length} of ${sample} answers failed, counted for neither)` : ""}`,
      };
    },
  };
}
