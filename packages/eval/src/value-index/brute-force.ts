import { normalizeValue } from "@nlq/engine";
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
