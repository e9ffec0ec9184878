import { describe, expect, it } from "vitest";
import { noticeKind, overheadPercentiles, percentile, phaseBreakdown } from "./overhead-report";

describe("question overhead report", () => {
  it("takes nearest-rank percentiles and the p50 overhead over select 1", () => {
    expect(percentile([5, 1, 3, 2, 4], 0.5)).toBe(3);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.95)).toBe(10);
    expect(percentile([], 0.5)).toBe(0);
    expect(overheadPercentiles([1, 1, 2], [20, 30, 40]).overheadP50).toBe(29);
  });

  it("groups progress notices by step and orders phases by median arrival", () => {
    expect(noticeKind("nlq: Read the schema: 12 tables, 96 columns (from the catalog index)")).toBe("Read the schema");
    expect(noticeKind("nlq: Extracted keywords: orders")).toBe("Extracted keywords");
    expect(noticeKind("nlq: Writing SQL candidate 2: one-shot")).toBe("Writing SQL candidate");
    expect(noticeKind("nlq: Fixing candidate 2 (attempt 1): empty result")).toBe("Fixing candidate (attempt)");
    expect(noticeKind("nlq: SELECT count(*) FROM orders")).toBe("SELECT");
    const phases = phaseBreakdown([
      [
        { message: "nlq: Read the schema: 1 table, 2 columns (introspected)", milliseconds: 4 },
        { message: "nlq: Extracted keywords: a", milliseconds: 9 },
      ],
      [
        { message: "nlq: Extracted keywords: b", milliseconds: 7 },
        { message: "nlq: Read the schema: 2 tables, 3 columns (introspected)", milliseconds: 2 },
      ],
    ]);
    expect(phases).toEqual([
      { notice: "Read the schema", p50: 2, questions: 2 },
      { notice: "Extracted keywords", p50: 7, questions: 2 },
    ]);
  });
});
