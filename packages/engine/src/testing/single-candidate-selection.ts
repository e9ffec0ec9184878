import type { SelectionSummary } from "../contract/answer";

/** Test helper: the selection of an answer that had one candidate (nothing compared, so no confidence). */
export const singleCandidateSelection: SelectionSummary = {
  selector: "single",
  candidates: 1,
  executed: 1,
  clusters: 1,
  chosenCluster: 0,
  basis: "one candidate was written: nothing to compare",
};
