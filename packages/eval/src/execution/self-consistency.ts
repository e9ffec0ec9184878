import type { EvaluationRun } from "./execute-for-evaluation";
import { compareResults } from "./result-comparison";

/** One candidate as self-consistency sees it: its run and whether its SQL orders at the top level. */
export interface ClusteredCandidate {
  readonly run: EvaluationRun;
  readonly ordered: boolean;
}

/** Clusters of candidates (indexes into the input), in order of their first member. */
function clusterByResult(candidates: readonly ClusteredCandidate[]): number[][] {
  const clusters: number[][] = [];
  candidates.forEach((candidate, index) => {
    const { run } = candidate;
    if (!run.ok) return;
    const cluster = clusters.find((members) => {
      const first = candidates[members[0]!]!;
      if (!first.run.ok) return false;
      const ordered = first.ordered && candidate.ordered;
      return compareResults(first.run.result, run.result, { ordered }).equal;
    });
    if (cluster) cluster.push(index);
    else clusters.push([index]);
  });
  return clusters;
}

/**
 * Self-consistency: the largest cluster of candidates by execution result wins. Candidates are in one cluster when
 * their results are equal row multisets (and in the same order when both SQL texts order at the top level), compared
 * with the first member of the cluster. Candidates that failed join no cluster. Ties between equally large clusters go
 * to the cluster whose first member comes first in the candidate list. Returns that first member's index (undefined
 * when no candidate ran) and the number of clusters.
 */
export function selfConsistencyChoice(candidates: readonly ClusteredCandidate[]): {
  readonly choice: number | undefined;
  readonly clusters: number;
} {
  const clusters = clusterByResult(candidates);
  let best: number[] | undefined;
  for (const cluster of clusters) if (best === undefined || cluster.length > best.length) best = cluster;
  return { choice: best?.[0], clusters: clusters.length };
}
