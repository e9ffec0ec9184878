import { type ComparableResult, compareResults, loadSqlParser } from "@nlq/engine";
import { beforeAll, describe, expect, it } from "vitest";
import { spiderOrderMatters, spiderResultsEqual, spiderRuleSql } from "./spider-result-rule";

const int4 = 23;
const numeric = 1700;
const text = 25;
const result = (columnTypes: number[], rows: (string | null)[][]): ComparableResult => ({ columnTypes, rows });

beforeAll(() => loadSqlParser());

describe("spiderResultsEqual (the test-suite evaluation's result_eq)", () => {
  const byName = result(
    [text, int4],
    [
      ["Joe", "52"],
      ["Rose", "41"],
    ],
  );
  const byAge = result(
    [int4, text],
    [
      ["52", "Joe"],
      ["41", "Rose"],
    ],
  );

  it("takes a permutation of columns for the same result, where nlq's rule does not", () => {
    expect(spiderResultsEqual(byName, byAge, false)).toBe(true);
    expect(spiderResultsEqual(byName, byAge, true)).toBe(true);
    expect(compareResults(byName, byAge).equal).toBe(false);
  });

  it("compares rows in order only when the order matters", () => {
    const reversed = result(
      [int4, text],
      [
        ["41", "Rose"],
        ["52", "Joe"],
      ],
    );
    expect(spiderResultsEqual(byName, reversed, false)).toBe(true);
    expect(spiderResultsEqual(byName, reversed, true)).toBe(false);
  });

  it("counts duplicates (bags, not sets) and rows", () => {
    const aab = result([text], [["a"], ["a"], ["b"]]);
    const abb = result([text], [["a"], ["b"], ["b"]]);
    expect(spiderResultsEqual(aab, abb, false)).toBe(false);
    expect(spiderResultsEqual(aab, result([text], [["a"], ["b"]]), false)).toBe(false);
    expect(spiderResultsEqual(aab, result([text], [["b"], ["a"], ["a"]]), false)).toBe(true);
  });

  it("holds two empty results equal whatever their columns, and different column counts unequal", () => {
    expect(spiderResultsEqual(result([text], []), result([int4, int4], []), false)).toBe(true);
    expect(spiderResultsEqual(result([text], [["a"]]), result([text, text], [["a", "a"]]), false)).toBe(false);
    expect(spiderResultsEqual(result([text], []), result([text], [["a"]]), false)).toBe(false);
  });

  it("compares numbers exactly as doubles, never a number with a text", () => {
    expect(spiderResultsEqual(result([int4], [["1"]]), result([numeric], [["1.0"]]), false)).toBe(true);
    expect(spiderResultsEqual(result([numeric], [["12.50"]]), result([numeric], [["12.5"]]), false)).toBe(true);
    expect(spiderResultsEqual(result([numeric], [["1"]]), result([numeric], [["1.0000001"]]), false)).toBe(false);
    expect(spiderResultsEqual(result([int4], [["1"]]), result([text], [["1"]]), false)).toBe(false);
    expect(spiderResultsEqual(result([text], [[null]]), result([int4], [[null]]), false)).toBe(true);
  });

  it("finds the permutation of a wide result whose columns share values", () => {
    const gold = result(
      [int4, int4, int4, int4, int4],
      [
        ["1", "2", "3", "4", "5"],
        ["2", "1", "3", "5", "4"],
      ],
    );
    const shuffled = result(
      [int4, int4, int4, int4, int4],
      [
        ["5", "3", "1", "2", "4"],
        ["4", "3", "2", "1", "5"],
      ],
    );
    expect(spiderResultsEqual(gold, shuffled, true)).toBe(true);
    const other = result(
      [int4, int4, int4, int4, int4],
      [
        ["5", "3", "1", "2", "4"],
        ["4", "3", "1", "2", "5"],
      ],
    );
    expect(spiderResultsEqual(gold, other, false)).toBe(false);
  });
});

describe("spiderOrderMatters", () => {
  it("is the gold's text holding `order by` anywhere, a subquery's included", () => {
    expect(spiderOrderMatters("SELECT name FROM singer ORDER BY age")).toBe(true);
    expect(spiderOrderMatters("SELECT name FROM (SELECT * FROM singer order by age LIMIT 3) AS t")).toBe(true);
    expect(spiderOrderMatters("SELECT name FROM singer")).toBe(false);
  });
});

describe("spiderRuleSql (the official remove_distinct)", () => {
  it("drops every DISTINCT keyword", () => {
    expect(spiderRuleSql("SELECT DISTINCT name, count(DISTINCT age) FROM singer")).toBe(
      "SELECT  name, count( age) FROM singer",
    );
  });

  it("keeps DISTINCT in literals and identifiers, DISTINCT ON and IS [NOT] DISTINCT FROM", () => {
    const kept = [
      `SELECT 'distinct', "distinct" FROM t`,
      "SELECT DISTINCT ON (a) a, b FROM t ORDER BY a",
      "SELECT a FROM t WHERE a IS DISTINCT FROM b OR a IS NOT DISTINCT FROM c",
    ];
    for (const sql of kept) expect(spiderRuleSql(sql)).toBe(sql);
  });
});
