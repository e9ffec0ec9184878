import type { CandidateCluster } from "./candidate-selector";

/**
 * The cluster with the highest score; ties go to the larger cluster (more candidates agree on its result), then to the
 * cluster whose first member came first. The one tie rule of every scoring selector (pairwise, unit tests).
 */
export function bestCluster(
  clusters: readonly CandidateCluster[],
  score: (cluster: CandidateCluster, position: number) => number,
): { readonly cluster: CandidateCluster; readonly position: number } {
  if (clusters.length === 0) throw new RangeError("bestCluster needs at least one cluster");
  let best = 0;
  const scores = clusters.map(score);
  for (let position = 1; position < clusters.length; position++) {
    const candidate = clusters[position]!;
    const leader = clusters[best]!;
    const better =
      scores[position]! > scores[best]! ||
      (scores[position] === scores[best] &&
        (candidate.members.length > leader.members.length ||
          (candidate.members.length === leader.members.length &&
            candidate.representative.index < leader.representative.index)));
    if (better) best = position;
  }
  return { cluster: clusters[best]!, position: best };
}
