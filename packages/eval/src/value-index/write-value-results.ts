import { writeFileSync } from "node:fs";
import { formatValueResults } from "./format-value-results";
import type { ValueBenchmarkResult } from "./run-value-benchmark";

/** Writes the figures, the parameters, the machine and the exact command as a Markdown snippet. */
export function writeValueResults(file: string, result: ValueBenchmarkResult, command: string): void {
  const lines = [
    "## Value index (CHESS retrieve_entity): MinHash LSH vs brute force vs pg_trgm",
    "",
    `Command: \`${command}\``,
    "",
    `Run ${new Date().toISOString().slice(0, 16)}Z on Node ${process.version}, ${process.platform}/${process.arch}; LSH ${result.parameters}.`,
    "Keywords: indexed values with one typo (swap, drop, double or substitute a letter; half lower-cased). Latency: one",
    "keyword through `retrieveEntities` (LSH → exact Jaccard top 10 → edit-distance rerank per column, no embedder).",
    "recall@1: share of keywords whose best match is as close (edit similarity) as the brute-force best over all values;",
    "(n) = keywords with a brute-force reference. pg_trgm: same values, GIN `gin_trgm_ops`, `value % kw ORDER BY",
    "similarity(value, kw) DESC LIMIT 10` (threshold 0.3), reranked by edit distance; its latency includes the localhost round trip.",
    "",
    formatValueResults(result),
    "",
  ];
  writeFileSync(file, lines.join("\n"));
}
