import { bestCluster } from "./best-cluster";
import type { CandidateCluster, CandidateSelector, SelectionOutcome } from "./candidate-selector";

/** Self-consistency's choice: the largest cluster; equal sizes go to the cluster whose first member came first. */
export function largestCluster(clusters: readonly CandidateCluster[]): CandidateCluster {
  return bestCluster(clusters, (cluster) => cluster.members.length).cluster;
}

/**
 * Self-consistency (Wang et al. 2022, CHASE-SQL's baseline): the largest cluster of equal results wins; equal sizes go
 * to the cluster whose first member came first (the earliest candidate). No model call. Confidence: the winning
 * cluster's share of the candidates written (`written`; failed ones count against it).
 */
export const selfConsistencySelector: CandidateSelector = {
  name: "self-consistency",
  async select({ candidates, clusters, written }): Promise<SelectionOutcome> {
    const cluster = largestCluster(clusters);
    const size = cluster.members.length;
    const total = Math.max(1, written ?? candidates.length);
    return {
      cluster,
      confidence: size / total,
      basis: `${size} of ${total} candidates returned this result (the largest of ${clusters.length} clusters)`,
    };
  },
};
