import type { ValueColumn } from "./value-column";

/** A value the LSH stage found for a keyword, with its exact 3-gram Jaccard similarity. */
export interface ValueCandidate {
  readonly column: ValueColumn;
  readonly value: string;
  /** Exact Jaccard similarity of the padded 3-gram sets of the normalized keyword and value. */
  readonly jaccard: number;
}

/** Candidates of one keyword, best Jaccard first (what `ValueIndex.search` gives for it). */
export interface KeywordCandidates {
  readonly keyword: string;
  readonly candidates: readonly ValueCandidate[];
}
