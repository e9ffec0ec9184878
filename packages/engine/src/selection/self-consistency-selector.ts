import { bestCluster } from "./best-cluster";
import type { CandidateCluster, CandidateSelector, SelectionOutcome } from "./candidate-selector";

/** Self-consistency's choice: the largest cluster; equal sizes go to the cluster whose first member came first. */
export function largestCluster(clusters: readonly CandidateCluster[]): CandidateCluster {
  return bestCluster(clusters, (cluster) => cluster.members.length).cluster;
}

/**
 * Self-consistency (Wang et al. 2022, CHASE-SQL's baseline): the largest cluster of equal results wins; equal sizes go
 * to the cluster whose first member came first (the earliest candidate). No model call. Confidence: the winning
 * cluster's share of the executed candidates.
 */
export const selfConsistencySelector: CandidateSelector = {
  name: "self-consistency",
  async select({ candidates, clusters }): Promise<SelectionOutcome> {
    const cluster = largestCluster(clusters);
    const size = cluster.members.length;
    return {
      cluster,
      confidence: size / Math.max(1, candidates.length),
      basis: `${size} of ${candidates.length} candidates returned this result (the largest of ${clusters.length} clusters)`,
    };
  },
};
