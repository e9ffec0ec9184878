import type { Catalog } from "../catalog/catalog-types";
import type { SelectionSummary } from "../contract/answer";
import { fnv1a } from "../embedding/feature-hashing";
import type { StepContext } from "../llm/step-context";
import { seededRandom } from "../random/seeded-random";
import { confidenceCappedByAgreement } from "../selection/answer-confidence";
import type { CandidateCluster, ExecutedCandidate, SelectionOutcome } from "../selection/candidate-selector";
import { clusterCandidates } from "../selection/cluster-candidates";
import { candidateSelector } from "../selection/selector-registry";

export interface SelectAnswerOptions {
  /** Candidates written, failed ones included (the denominator of agreement). */
  readonly written: number;
  /** Candidates that ran, in candidate order (never empty). */
  readonly executed: readonly ExecutedCandidate[];
  /** The schema the generators saw (sample 0's order). */
  readonly schema: string;
  readonly catalog: Catalog;
  readonly context: StepContext;
}

export interface SelectedAnswer {
  readonly chosen: ExecutedCandidate;
  readonly confidence?: number;
  readonly summary: SelectionSummary;
  /** Cluster index of each executed candidate, by candidate index. */
  readonly clusterOf: ReadonlyMap<number, number>;
  /** The execution clusters, largest first (`summary.chosenCluster` indexes them): the answer's interpretations. */
  readonly clusters: readonly CandidateCluster[];
}

function agreement(cluster: CandidateCluster, written: number): { confidence: number; basis: string } {
  return {
    confidence: cluster.members.length / written,
    basis: `${cluster.members.length} of ${written} candidates returned this result`,
  };
}

/**
 * The selection stage: clusters the candidates that ran by their results (`clusterCandidates`) and, when they
 * disagree, asks the configured selector (`settings.selector`) to choose among the clusters.
 *
 * Confidence, always computed from what the selection saw:
 * - one candidate written: none (nothing was compared);
 * - every candidate that ran agrees: the cluster's share of the candidates written (failed ones count against it);
 * - otherwise: the selector's own figure (self-consistency: the cluster's share; pairwise: the winner's win rate;
 *   unit tests: the share of tests passed), at most the chosen cluster's share of the candidates written
 *   (`confidenceCappedByAgreement`): the one figure the event, the answer and every surface carry.
 * If the selector fails (its model calls err, the budget is spent or the deadline passed), self-consistency chooses
 * instead and the basis says why; only the client's cancel is thrown.
 */
export async function selectAnswer(options: SelectAnswerOptions): Promise<SelectedAnswer> {
  const { context, executed, written } = options;
  const clusters = await clusterCandidates(executed);
  const clusterOf = new Map<number, number>();
  clusters.forEach((cluster, index) => {
    for (const member of cluster.members) clusterOf.set(member.index, index);
  });
  const selectorName = clusters.length === 1 ? "single" : context.settings.selector;
  context.emit({
    type: "selection-start",
    candidates: executed.length,
    clusters: clusters.length,
    selector: selectorName,
  });

  let outcome: Pick<SelectionOutcome, "cluster" | "basis"> & { confidence?: number };
  let usedSelector = selectorName;
  const [largest] = clusters as [CandidateCluster, ...CandidateCluster[]];
  if (clusters.length === 1) {
    outcome =
      written === 1
        ? { cluster: largest, basis: "one candidate was written: nothing to compare" }
        : { cluster: largest, ...agreement(largest, written) };
  } else {
    const selectOptions = {
      candidates: executed,
      written,
      clusters,
      schema: options.schema,
      catalog: options.catalog,
      context,
      // Seeded by the question, so a re-run draws the same.
      random: seededRandom(fnv1a(context.question)),
    };
    try {
      outcome = await candidateSelector(selectorName).select(selectOptions);
    } catch (error) {
      if (context.abortSignal?.aborted) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      usedSelector = "self-consistency";
      const fallback = await candidateSelector("self-consistency").select(selectOptions);
      outcome = { ...fallback, basis: `${selectorName} failed (${reason}); ${fallback.basis}` };
    }
    outcome = {
      cluster: outcome.cluster,
      ...confidenceCappedByAgreement(outcome, outcome.cluster.members.length, written),
    };
  }
  const chosenCluster = clusters.indexOf(outcome.cluster);
  const chosen = outcome.cluster.representative;
  const summary: SelectionSummary = {
    selector: usedSelector,
    candidates: written,
    executed: executed.length,
    clusters: clusters.length,
    chosenCluster,
    basis: outcome.basis,
  };
  context.emit({
    type: "selection-end",
    sql: chosen.sql,
    ...(outcome.confidence === undefined ? {} : { confidence: outcome.confidence }),
    candidates: written,
    clusters: clusters.length,
    selector: usedSelector,
    basis: outcome.basis,
  });
  return {
    chosen,
    ...(outcome.confidence === undefined ? {} : { confidence: outcome.confidence }),
    summary,
    clusterOf,
    clusters,
  };
}
