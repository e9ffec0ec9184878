import { describe, expect, it } from "vitest";
import { describeSelection } from "../pipeline/describe-selection";
import { confidenceCappedByAgreement } from "./answer-confidence";

const won = { confidence: 1, basis: "won 2 of 2 pairwise comparisons against 1 other result clusters" };

describe("one confidence figure per answer", () => {
  it("is at most the chosen result's share when candidates returned other rows: 9 of 10, not a 10-of-10 win rate", () => {
    const capped = confidenceCappedByAgreement(won, 9, 10);
    expect(capped).toEqual({
      confidence: 0.9,
      basis:
        "won 2 of 2 pairwise comparisons against 1 other result clusters; at most 9 of 10 candidates (90%): the others returned different rows",
    });
    // The line the proxy's NOTICE and nlq ask print carries the web app's figure (its badge rounds to 90%).
    const summary = {
      selector: "pairwise",
      candidates: 10,
      executed: 10,
      clusters: 2,
      chosenCluster: 0,
      basis: capped.basis,
    };
    expect(describeSelection(summary, capped.confidence)).toMatch(/^confidence 90% \(won 2 of 2 .*\); 10 candidates/);
  });

  it("keeps a selector's figure that doubts more than the agreement does", () => {
    const doubtful = { confidence: 0.5, basis: "won 1 of 2 pairwise comparisons" };
    expect(confidenceCappedByAgreement(doubtful, 9, 10)).toBe(doubtful);
    const none = { basis: "one candidate was written" };
    expect(confidenceCappedByAgreement(none, 1, 1)).toBe(none);
  });
});
