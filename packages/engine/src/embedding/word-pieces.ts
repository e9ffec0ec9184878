/**
 * Splits text and identifiers into lower-cased word pieces: on anything that is not a letter or digit
 * (`_`, spaces, dots, brackets), on camelCase humps and on letter/digit boundaries, then applies a light
 * suffix-stripping stemmer so `orders`, `ordered` and `ordering` meet at `order`.
 */
export function splitWordPieces(text: string): string[] {
  const spaced = text
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/([A-Za-z])([0-9])/g, "$1 $2")
    .replace(/([0-9])([A-Za-z])/g, "$1 $2")
    .toLowerCase();
  return spaced.split(/[^\p{L}\p{N}]+/u).filter((piece) => piece.length > 0);
}

/** English function words and question scaffolding that carry no schema meaning. */
export const stopWords: ReadonlySet<string> = new Set(
  (
    "a an the of in on at to for from by with and or not no is are was were be been being do does did " +
    "what which who whom whose when where why how many much there their they them it its this that these those " +
    "as than then please list show give me tell find state provide among all any each both also only " +
    "has have had can could should would will shall may might i you we he she his her our your my " +
    "into out up down over under about between during after before more most less least same other such"
  ).split(" "),
);

/** Light stemmer: strips common English inflections; words of four letters or fewer are kept whole. */
export function stemWord(word: string): string {
  if (word.length <= 4 || /^[0-9]+$/.test(word)) return word;
  if (word.endsWith("ies") && word.length > 5) return `${word.slice(0, -3)}y`;
  if (word.endsWith("sses")) return word.slice(0, -2);
  if (word.endsWith("ing") && word.length > 6) return trimDoubled(word.slice(0, -3));
  if (word.endsWith("ed") && word.length > 5) return trimDoubled(word.slice(0, -2));
  if (word.endsWith("es") && /(ch|sh|x|ss|z)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("s") && !word.endsWith("ss") && !word.endsWith("us") && !word.endsWith("is"))
    return word.slice(0, -1);
  return word;
}

function trimDoubled(stem: string): string {
  const last = stem.at(-1);
  if (stem.length > 3 && last !== undefined && last === stem.at(-2) && !"lsz".includes(last)) return stem.slice(0, -1);
  return stem;
}

/** Word pieces, stop words removed, stemmed. */
export function contentTerms(text: string): string[] {
  return splitWordPieces(text)
    .filter((piece) => !stopWords.has(piece))
    .map(stemWord);
}

/** Pairs of (word piece, stemmed term), stop words removed. */
export function contentPieces(text: string): [string, string][] {
  return splitWordPieces(text)
    .filter((piece) => !stopWords.has(piece))
    .map((piece) => [piece, stemWord(piece)]);
}
