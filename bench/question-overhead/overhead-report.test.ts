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
    expect(noticeKind("nlq: schema read (12 tables, 96 columns, from index)")).toBe("schema read");
    expect(noticeKind("nlq: keywords orders")).toBe("keywords");
    expect(noticeKind("nlq: candidate 1: generating (one-shot)")).toBe("candidate generating");
    const phases = phaseBreakdown([
      [
        { message: "nlq: schema read (1 tables)", milliseconds: 4 },
        { message: "nlq: keywords a", milliseconds: 9 },
      ],
      [
        { message: "nlq: keywords b", milliseconds: 7 },
        { message: "nlq: schema read (2 tables)", milliseconds: 2 },
      ],
    ]);
    expect(phases).toEqual([
      { notice: "schema read", p50: 2, questions: 2 },
      { notice: "keywords", p50: 7, questions: 2 },
    ]);
  });
});
