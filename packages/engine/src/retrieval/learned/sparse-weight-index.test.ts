import { describe, expect, it } from "vitest";
import { sparseFeatureKeys } from "./learned-features";
import { SparseWeightIndex } from "./sparse-weight-index";

describe("sparse weight index", () => {
  it("sums exactly what the column's feature keys weigh, skipping terms without weights", () => {
    const weights = new Map([
      ["p:age", 0.25],
      ["c:oldest|age", 1.5],
      ["t:oldest|singer", -0.125],
      ["c:born|birth", 2],
      ["t:singer|singer", 0.75],
    ]);
    const tokens = { column: ["age", "year"], table: ["singer"] };
    const terms = ["who", "oldest", "singer", "born"];
    const expected = sparseFeatureKeys(terms, tokens).reduce((sum, key) => sum + (weights.get(key) ?? 0), 0);
    expect(new SparseWeightIndex(weights).forQuestion(terms).score(tokens)).toBe(expected);
    expect(expected).toBe(0.25 + 1.5 - 0.125 + 0.75);
    expect(new SparseWeightIndex(weights).forQuestion(["unknown"]).score(tokens)).toBe(0.25);
  });
});
