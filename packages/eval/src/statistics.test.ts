import { describe, expect, it } from "vitest";
import { median, percentile } from "./statistics";

describe("benchmark statistics", () => {
  const tenValues = [10, 1, 9, 2, 8, 3, 7, 4, 6, 5];

  it("takes percentiles by nearest rank: p90 of ten values is the ninth, not the maximum", () => {
    expect(percentile(tenValues, 90)).toBe(9);
    expect(percentile(tenValues, 10)).toBe(1);
    expect(percentile(tenValues, 50)).toBe(5);
    expect(percentile(tenValues, 100)).toBe(10);
    expect(percentile([], 50)).toBeNaN();
  });

  it("takes the median, averaging the middle pair", () => {
    expect(median(tenValues)).toBe(5.5);
    expect(median([3, 1, 2])).toBe(2);
  });
});
