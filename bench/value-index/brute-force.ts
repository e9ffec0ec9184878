import { normalizeValue } from "@nlq/core";
import { distance } from "fastest-levenshtein";

/** The exhaustive reference: the best edit similarity of a keyword over every value (normalized). */
export function bruteForceBest(
  keyword: string,
  normalizedValues: readonly string[],
): { similarity: number; value: string } {
  const normalizedKeyword = normalizeValue(keyword);
  let best = -1;
  let bestValue = "";
  for (const value of normalizedValues) {
    const longer = Math.max(value.length, normalizedKeyword.length);
    const similarity = longer === 0 ? 1 : 1 - distance(normalizedKeyword, value) / longer;
    if (similarity > best) {
      best = similarity;
      bestValue = value;
    }
  }
  return { similarity: best, value: bestValue };
}

/** p-th percentile (0–100) of a list of numbers, nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
