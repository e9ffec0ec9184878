import type { ConfirmedReading } from "./knowledge";

/**
 * One reading of a question, grounded in execution: a cluster of candidates that returned the same result. When the
 * candidates' results split into several clusters, `Answer.interpretations` lists them, the chosen one first.
 */
export interface Interpretation {
  /** Its number as surfaces show it, from 1 (#1 is the chosen one, the answer's own SQL and rows). */
  readonly number: number;
  /** True for the reading the answer is: `Answer.sql` and `Answer.result`. */
  readonly chosen: boolean;
  /** The cluster's SQL (its first candidate's, as executed). */
  readonly sql: string;
  /** How many candidates returned this result. */
  readonly support: number;
  /** `support` over the candidates written (failed ones count against every reading), in [0, 1]. */
  readonly share: number;
  readonly columns: readonly string[];
  /** Its first rows (at most `interpretationPreviewRows`), from the execution under the asking role. */
  readonly rows: ReadonlyArray<ReadonlyArray<string | null>>;
  /** Rows it returned in all (capped by `NLQ_ROW_LIMIT`; `truncated` when cut). */
  readonly rowCount: number;
  readonly truncated: boolean;
  /**
   * One line saying how it differs from the chosen reading, computed from both SQL texts (tables, select list,
   * filters, grouping, ordering, limit) and both results (row counts, the first differing value); never
   * model-written. For the chosen reading: `the chosen reading`.
   */
  readonly difference: string;
  /**
   * The reading its candidates were written for, when the reading step found the question's phrase in doubt: the
   * phrase, what it means here (`chosen`) and what else it could mean (`alternatives`) — what a confirmation stores.
   * Absent when its candidates had no reading to follow.
   */
  readonly reading?: ConfirmedReading;
}

/** Rows of each interpretation kept on the answer. */
export const interpretationPreviewRows = 5;
