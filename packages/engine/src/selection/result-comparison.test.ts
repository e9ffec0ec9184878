import { describe, expect, it } from "vitest";
import { type ComparableResult, compareResults } from "./result-comparison";

const int4 = 23;
const numeric = 1700;
const text = 25;

const result = (columnTypes: number[], rows: Array<Array<string | null>>): ComparableResult => ({ columnTypes, rows });

describe("compareResults", () => {
  it("compares row multisets regardless of order by default", () => {
    const gold = result(
      [int4, text],
      [
        ["1", "a"],
        ["2", "b"],
        ["2", "b"],
      ],
    );
    expect(
      compareResults(
        gold,
        result(
          [int4, text],
          [
            ["2", "b"],
            ["1", "a"],
            ["2", "b"],
          ],
        ),
      ),
    ).toEqual({
      equal: true,
      setEqual: true,
    });
  });

  it("counts duplicates for execution accuracy but not for BIRD-style set equality", () => {
    const gold = result([int4], [["1"], ["2"]]);
    expect(compareResults(gold, result([int4], [["1"], ["2"], ["2"]]))).toEqual({ equal: false, setEqual: true });
  });

  it("compares order when asked (the gold orders at its top level); sets still ignore it", () => {
    const gold = result([int4], [["1"], ["2"]]);
    const reversed = result([int4], [["2"], ["1"]]);
    expect(compareResults(gold, reversed, { ordered: true })).toEqual({ equal: false, setEqual: true });
    expect(compareResults(gold, gold, { ordered: true }).equal).toBe(true);
  });

  it("treats numbers as equal within 1e-6 and different beyond", () => {
    const gold = result([numeric], [["0.3333333333"]]);
    expect(compareResults(gold, result([numeric], [["0.33333334"]])).equal).toBe(true);
    expect(compareResults(gold, result([numeric], [["0.3334"]])).equal).toBe(false);
    expect(compareResults(result([numeric], [["2.50"]]), result([int4], [["2.5"]])).equal).toBe(true);
  });

  it("compares text exactly, even when it looks like a number", () => {
    expect(compareResults(result([text], [["2.50"]]), result([text], [["2.5"]])).equal).toBe(false);
  });

  it("treats NULL as equal to NULL and different from a value", () => {
    expect(compareResults(result([int4], [[null]]), result([int4], [[null]])).equal).toBe(true);
    expect(compareResults(result([int4], [[null]]), result([int4], [["0"]])).equal).toBe(false);
  });

  it("ignores column names but not column order or count", () => {
    const gold = result([int4, text], [["1", "a"]]);
    expect(compareResults(gold, result([text, int4], [["a", "1"]])).equal).toBe(false);
    expect(compareResults(gold, result([int4], [["1"]])).equal).toBe(false);
  });

  it("matches two empty results with the same columns", () => {
    expect(compareResults(result([int4], []), result([int4], [])).equal).toBe(true);
  });
});
