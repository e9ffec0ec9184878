import type { CandidateCluster, ExecutedCandidate } from "./candidate-selector";

/** Model calls of pairwise selection: made over cluster representatives, against the alternatives. */
export interface PairwiseCallCount {
  /** Calls the pairwise selector makes (budget permitting): both orders of every pair of clusters, m·(m−1); 0 for one cluster. */
  readonly made: number;
  /** Calls if every ordered pair of distinct candidates were compared by the model: n·(n−1). */
  readonly allPairs: number;
  /**
   * Calls of Algorithm 3 as written (CHASE-SQL §2.5): every ordered pair of candidates whose results differ (equal
   * results give a win without a call): Σ over pairs of clusters of 2·|Ci|·|Cj|.
   */
  readonly differingPairs: number;
}

/**
 * How many selection-model calls cluster pairing makes and saves (pure). Comparing representatives instead of every
 * candidate saves `allPairs − made` calls (and `differingPairs − made` against Algorithm 3 itself); e.g. 6 candidates
 * in clusters of 3, 2 and 1: made 6, differingPairs 22, allPairs 30. Only the counts matter, so a caller holding
 * just the candidates' cluster memberships (e.g. an `Answer`'s candidate records) can count too.
 */
export function pairwiseCallCount(
  candidates: readonly ExecutedCandidate[] | readonly unknown[],
  clusters: readonly CandidateCluster[] | readonly { readonly members: readonly unknown[] }[],
): PairwiseCallCount {
  const n = candidates.length;
  const m = clusters.length;
  let sameResultPairs = 0;
  for (const cluster of clusters) sameResultPairs += cluster.members.length * (cluster.members.length - 1);
  return { made: m > 1 ? m * (m - 1) : 0, allPairs: n * (n - 1), differingPairs: n * (n - 1) - sameResultPairs };
}
