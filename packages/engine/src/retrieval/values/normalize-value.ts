/**
 * The one normal form the value index compares strings in: Unicode NFKC, lower case, accents kept,
 * runs of whitespace collapsed to one space, trimmed. `Alameda  County` and `alameda county` are equal.
 */
export function normalizeValue(text: string): string {
  return text.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
}
