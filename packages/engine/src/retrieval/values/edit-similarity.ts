import { distance } from "fastest-levenshtein";
import { normalizeValue } from "./normalize-value";

/** 1 − Levenshtein distance / longer length, on normalized strings (case-insensitive); 1 for equal strings. */
export function editSimilarity(left: string, right: string): number {
  const normalizedLeft = normalizeValue(left);
  const normalizedRight = normalizeValue(right);
  const longer = Math.max(normalizedLeft.length, normalizedRight.length);
  return longer === 0 ? 1 : 1 - distance(normalizedLeft, normalizedRight) / longer;
}
