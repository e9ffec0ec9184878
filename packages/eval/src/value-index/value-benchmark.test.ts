import { seededRandom } from "@nlq/engine";
import { describe, expect, it } from "vitest";
import { formatValueResults } from "./format-value-results";
import { generateColumnValues, typoKeyword } from "./generate-values";
import { runValueBenchmark } from "./run-value-benchmark";

describe("value index benchmark", () => {
  it("generates the same values and typos for the same seed", () => {
    const first = [...generateColumnValues(2_000, 5)];
    const second = [...generateColumnValues(2_000, 5)];
    expect(first).toEqual(second);
    expect(first.reduce((sum, column) => sum + column.values.length, 0)).toBe(2_000);
    const random = seededRandom(1);
    const typo = typoKeyword("San Francisco", random);
    expect(typo).not.toBe("San Francisco");
    expect(Math.abs(typo.length - "San Francisco".length)).toBeLessThanOrEqual(1);
  });

  it("runs a small level end to end, pg_trgm and the stored index included", async () => {
    const lines: string[] = [];
    const result = await runValueBenchmark({
      levels: [20_000],
      keywords: 40,
      seed: 3,
      log: (line) => lines.push(line),
    });
    const [level] = result.levels;
    expect(level!.values).toBe(20_000);
    expect(level!.bruteForceKeywords).toBe(40);
    expect(level!.recall).toBeGreaterThanOrEqual(0.9);
    expect(level!.pgTrgm?.latencies).toHaveLength(40);
    // The index served by the metadata store finds what the in-memory one finds.
    expect(level!.stored?.latencies).toHaveLength(40);
    expect(level!.stored!.recall).toBeGreaterThanOrEqual(level!.recall - 0.05);
    expect(formatValueResults(result)).toContain("| 20,000 (");
  });
});
