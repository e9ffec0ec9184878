import { describe, expect, it } from "vitest";
import { median, summariseTurns, turnTable } from "./thread-timings";

describe("thread timings", () => {
  it("takes the middle value, or the mean of the middle two", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it("summarises each turn over its rounds: keys pooled, overhead per round", () => {
    const summaries = summariseTurns([
      { turn: 10, keyMilliseconds: [5, 7], submitToRowsMilliseconds: 300, serverMilliseconds: 100 },
      { turn: 1, keyMilliseconds: [2], submitToRowsMilliseconds: 120, serverMilliseconds: 90 },
      { turn: 10, keyMilliseconds: [6, 40], submitToRowsMilliseconds: 200, serverMilliseconds: 150 },
    ]);
    expect(summaries.map((summary) => summary.turn)).toEqual([1, 10]);
    expect(summaries[1]).toEqual({
      turn: 10,
      rounds: 2,
      keyMedian: 6.5,
      keyWorst: 40,
      submitToRowsMedian: 250,
      serverMedian: 125,
      pageOverheadMedian: 125,
    });
    expect(turnTable(summaries)).toContain("| 10 | 2 | 6.5 | 40.0 | 250.0 | 125.0 | 125.0 |");
  });
});
