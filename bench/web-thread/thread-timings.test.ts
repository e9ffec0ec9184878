import { describe, expect, it } from "vitest";
import { median, quantile, summariseTurns, turnTable } from "./thread-timings";

describe("thread timings", () => {
  it("takes the middle value, or the mean of the middle two", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it("takes a quantile by nearest rank", () => {
    const values = Array.from({ length: 20 }, (_, index) => index + 1);
    expect(quantile(values, 0.95)).toBe(19);
    expect(quantile([7], 0.95)).toBe(7);
    expect(quantile([], 0.95)).toBeNaN();
  });

  it("summarises each turn over its rounds: keys pooled, overhead per round", () => {
    const summaries = summariseTurns([
      {
        turn: 10,
        keyMilliseconds: [5, 7],
        keyWorkMilliseconds: [1, 2],
        submitToRowsMilliseconds: 300,
        serverMilliseconds: 100,
      },
      {
        turn: 1,
        keyMilliseconds: [2],
        keyWorkMilliseconds: [1],
        submitToRowsMilliseconds: 120,
        serverMilliseconds: 90,
      },
      {
        turn: 10,
        keyMilliseconds: [6, 40],
        keyWorkMilliseconds: [3, 9],
        submitToRowsMilliseconds: 200,
        serverMilliseconds: 150,
      },
    ]);
    expect(summaries.map((summary) => summary.turn)).toEqual([1, 10]);
    expect(summaries[1]).toEqual({
      turn: 10,
      rounds: 2,
      keyMedian: 6.5,
      keyWorst: 40,
      keyWorkMedian: 2.5,
      keyWorkP95: 9,
      submitToRowsMedian: 250,
      serverMedian: 125,
      pageOverheadMedian: 125,
    });
    expect(turnTable(summaries)).toContain("| 10 | 2 | 2.5 | 9.0 | 6.5 | 40.0 | 250.0 | 125.0 | 125.0 |");
  });
});
