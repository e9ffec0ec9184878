import type { CandidateSelector, SelectionOutcome } from "./candidate-selector";

/**
 * The random baseline: one executed candidate drawn uniformly with the question's seeded `random`, answered by its
 * cluster. No model call. Confidence: the chance a uniform draw lands in that cluster (its share of the candidates).
 */
export const randomSelector: CandidateSelector = {
  name: "random",
  async select({ candidates, clusters, random, written }): Promise<SelectionOutcome> {
    const drawn = candidates[Math.min(candidates.length - 1, Math.floor(random() * candidates.length))]!;
    const cluster = clusters.find((each) => each.members.includes(drawn)) ?? clusters[0]!;
    const size = cluster.members.length;
    const total = Math.max(1, written ?? candidates.length);
    return {
      cluster,
      confidence: size / total,
      basis: `drawn at random; ${size} of ${total} candidates returned this result`,
    };
  },
};
