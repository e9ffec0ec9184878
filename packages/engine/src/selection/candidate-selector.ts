import type { Catalog } from "../catalog/catalog-types";
import type { CappedResult } from "../database/read-only-session";
import type { StepContext } from "../llm/step-context";

/** A candidate that passed the fixer and ran: its final SQL and its (capped) result. */
export interface ExecutedCandidate {
  /** The candidate's number in the question (the order generation started, from 0). */
  readonly index: number;
  /** Name of the generator that wrote it. */
  readonly generator: string;
  /** The SQL that produced `result`, as executed. */
  readonly sql: string;
  readonly result: CappedResult;
  /** The reading (`QuestionReading.number`) it was written for, when the reading step found several. */
  readonly reading?: number;
}

/** Candidates whose results are the same (see `clusterCandidates`), in candidate order. */
export interface CandidateCluster {
  /** Members in candidate order; never empty. */
  readonly members: readonly ExecutedCandidate[];
  /** The member that speaks for the cluster (the first one). */
  readonly representative: ExecutedCandidate;
}

export interface SelectCandidateOptions {
  /** Every executed candidate, in candidate order. */
  readonly candidates: readonly ExecutedCandidate[];
  /**
   * Candidates written, failed ones included (the denominator of agreement: a candidate that failed agrees with
   * nothing). Default: `candidates.length`.
   */
  readonly written?: number;
  /** The candidates grouped by result, largest first (ties: the cluster whose first member came first). */
  readonly clusters: readonly CandidateCluster[];
  /** The schema the generators saw (rendered selected catalog). */
  readonly schema: string;
  /** The selected catalog. */
  readonly catalog: Catalog;
  readonly context: StepContext;
  /** Seeded randomness for selectors that draw (the random baseline, shuffled pair orders). */
  readonly random: () => number;
}

/** What a selector chose and how sure the selection is. */
export interface SelectionOutcome {
  /** The chosen cluster (one of `options.clusters`); its representative is the answer. */
  readonly cluster: CandidateCluster;
  /**
   * A figure in [0, 1] computed from what this selector saw (e.g. the chosen cluster's share of candidates, or its
   * pairwise win rate); `basis` says which. Never a constant.
   */
  readonly confidence: number;
  /** How `confidence` was computed, in words a person can read (shown beside the figure). */
  readonly basis: string;
}

/**
 * Chooses one answer among executed candidates (CHASE-SQL selection agent, CHESS unit tester, self-consistency,
 * random). Add one by implementing this and registering it in `selector-registry.ts`; presets name selectors by `name`.
 * A selector is only asked when there are at least two clusters.
 */
export interface CandidateSelector {
  readonly name: string;
  select(options: SelectCandidateOptions): Promise<SelectionOutcome>;
}
