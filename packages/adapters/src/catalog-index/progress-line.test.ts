import { describe, expect, it } from "vitest";
import { estimateRemainingMilliseconds, formatProgressBar, formatProgressLine } from "./progress-line";

describe("progress of nlq index", () => {
  it("does not guess an ETA from the first items, which carry start-up work", () => {
    expect(estimateRemainingMilliseconds({ done: 1, total: 779, elapsedMilliseconds: 7_000 })).toBeUndefined();
    expect(estimateRemainingMilliseconds({ done: 7, total: 779, elapsedMilliseconds: 9_000 })).toBeUndefined();
    expect(estimateRemainingMilliseconds({ done: 8, total: 779, elapsedMilliseconds: 8_000 })).toBe(771_000);
    expect(estimateRemainingMilliseconds({ done: 3, total: 10, elapsedMilliseconds: 3_000 })).toBe(7_000);
    expect(estimateRemainingMilliseconds({ done: 10, total: 10, elapsedMilliseconds: 9_000 })).toBe(0);
  });

  it("draws a bar with counts, percent, ETA and the current item, fitted to the terminal", () => {
    expect(formatProgressBar({ done: 52, total: 100, elapsedMilliseconds: 52_000, label: "s.t" })).toBe(
      "[##########..........] 52/100 52% ETA 48s s.t",
    );
    expect(formatProgressBar({ done: 1, total: 779, elapsedMilliseconds: 7_000 })).toContain("ETA --");
    expect(
      formatProgressBar({ done: 52, total: 100, elapsedMilliseconds: 1, label: "x".repeat(200) }, 40),
    ).toHaveLength(40);
  });

  it("writes plain lines for logs", () => {
    expect(formatProgressLine({ done: 52, total: 100, elapsedMilliseconds: 52_000, label: "s.t" })).toBe(
      "indexed 52/100 tables (52%, ETA 48s): s.t",
    );
  });
});
