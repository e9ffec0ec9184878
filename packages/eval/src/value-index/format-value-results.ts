import type { ValueBenchmarkResult } from "./run-value-benchmark";

const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : "–");

/** The benchmark's table as Markdown (also readable in a terminal). */
export function formatValueResults(result: ValueBenchmarkResult): string {
  const header =
    "| values (real) | build s | values/s | index MB | peak RSS MB | heap MB | p50 ms | p99 ms | recall@1 (n) | brute p50 ms | brute/index | pg_trgm p50 ms | pg_trgm p99 ms | pg_trgm recall@1 (n) | pg_trgm/index | pg_trgm load+GIN s | GIN MB | stored p50 ms | stored p99 ms | stored recall@1 (n) | stored/index | stored publish s | stored MB |";
  const separator = `|${header
    .split("|")
    .slice(1, -1)
    .map(() => "---")
    .join("|")}|`;
  const rows = result.levels.map((level) => {
    const trgm = level.pgTrgm;
    const stored = level.stored;
    const storedCells = stored
      ? `${fixed(stored.p50, 2)} | ${fixed(stored.p99, 2)} | ${fixed(stored.recall, 3)} (${stored.recallKeywords}) | ${fixed(stored.p50 / level.p50, 1)}× | ${fixed(stored.publishSeconds, 0)} | ${fixed(stored.diskMegabytes, 0)}`
      : "not run | – | – | – | – | –";
    return `| ${level.values.toLocaleString("en-US")} (${level.realValues.toLocaleString("en-US")}) | ${fixed(level.buildSeconds, 1)} | ${Math.round(level.valuesPerSecond).toLocaleString("en-US")} | ${fixed(level.indexMegabytes, 0)} | ${fixed(level.rssMegabytes, 0)} | ${fixed(level.heapMegabytes, 0)} | ${fixed(level.p50, 2)} | ${fixed(level.p99, 2)} | ${fixed(level.recall, 3)} (${level.bruteForceKeywords}) | ${fixed(level.bruteForceP50, 0)} | ${fixed(level.bruteForceP50 / level.p50, 0)}× | ${trgm ? fixed(trgm.p50, 2) : "not run"} | ${trgm ? fixed(trgm.p99, 2) : "–"} | ${trgm ? `${fixed(trgm.recall, 3)} (${trgm.recallKeywords})` : "–"} | ${trgm ? `${fixed(trgm.p50 / level.p50, 1)}×` : "–"} | ${trgm ? `${fixed(trgm.loadSeconds, 0)}+${fixed(trgm.indexSeconds, 0)}` : "–"} | ${trgm ? fixed(trgm.indexMegabytes, 0) : "–"} | ${storedCells} |`;
  });
  return [header, separator, ...rows].join("\n");
}
