import { splitWordPieces, stemWord, stopWords } from "../../embedding/word-pieces";
import { normalizeValue } from "./normalize-value";

/**
 * 1 − optimal-string-alignment distance / longer length, case-insensitive: like `editSimilarity`, but a swap of two
 * neighbouring letters (`Frnace` → `France`) is one edit, as people make them, not two.
 */
export function typoSimilarity(left: string, right: string): number {
  const a = normalizeValue(left);
  const b = normalizeValue(right);
  const longer = Math.max(a.length, b.length);
  if (longer === 0) return 1;
  let beforePrevious = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let row = 1; row <= a.length; row++) {
    const current = [row];
    for (let column = 1; column <= b.length; column++) {
      const cost = a[row - 1] === b[column - 1] ? 0 : 1;
      let best = Math.min(previous[column]! + 1, current[column - 1]! + 1, previous[column - 1]! + cost);
      if (row > 1 && column > 1 && a[row - 1] === b[column - 2] && a[row - 2] === b[column - 1])
        best = Math.min(best, beforePrevious[column - 2]! + 1);
      current.push(best);
    }
    beforePrevious = previous;
    previous = current;
  }
  return 1 - previous[b.length]! / longer;
}

/** Lower-case words of a text (letters and digits; everything else separates). */
function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

/**
 * How well a database value matches some phrase of the question, in [0, 1]: the best `typoSimilarity` between the
 * value's words and any run of the question's words of about the same count (one word fewer or more). Phrases are
 * whole words, so "22" never matches inside "2022" and `KP022` matches "2022" poorly (0.6).
 */
export function phraseSimilarity(question: string, value: string): number {
  const questionWords = words(question);
  const valueWords = words(value);
  if (questionWords.length === 0 || valueWords.length === 0) return 0;
  const valueText = valueWords.join(" ");
  let best = 0;
  for (let size = Math.max(1, valueWords.length - 1); size <= valueWords.length + 1; size++) {
    for (let start = 0; start + size <= questionWords.length; start++) {
      best = Math.max(best, typoSimilarity(questionWords.slice(start, start + size).join(" "), valueText));
    }
  }
  return best;
}

/** A retrieved value, as far as showing it is concerned. */
export interface ShownValue {
  readonly keyword: string;
  readonly table: string;
  readonly column: string;
  readonly value: string;
}

/** Options of `valuesWorthShowing`. */
export interface ValuesWorthShowingOptions {
  /**
   * Smallest `typoSimilarity` of the value to a question phrase (or to its keyword). Default 0.7: one typo in three
   * letters or more (`Frnace`, `Rotterdm`, `Francia`), never `Deven` for "revenue" (0.57) or `KP022` for "2022" (0.6).
   */
  readonly minimumSimilarity?: number;
  /** Smallest share of a value that a contained question phrase must cover. Default 0.4. */
  readonly minimumContainedShare?: number;
  /**
   * Words of the schema's own names (tables, columns: `schemaNameWords`). A value made only of such words (`Singer`
   * for "singers" in a database with a `singer` table) restates what the schema already says, so it is not shown.
   * Default: none.
   */
  readonly schemaWords?: ReadonlySet<string>;
}

/** The lower-case words (and their light stems) of every table and column name of a catalog. */
export function schemaNameWords(names: Iterable<string>): Set<string> {
  const found = new Set<string>();
  for (const name of names)
    for (const word of splitWordPieces(name)) {
      found.add(word);
      found.add(stemWord(word));
    }
  return found;
}

/**
 * The retrieved values a prompt should see: those that match a phrase of the question (or the keyword they were found
 * for) well enough to help (`phraseSimilarity` ≥ `minimumSimilarity`, or a contained phrase covering
 * `minimumContainedShare` of the value: `isContainedMatch`), each column and value once (the first, best-ranked, keyword's), in order.
 * Retrieval keeps its wider net for recall (narrowing the schema); this is what reaches the hint line and the
 * columns' examples.
 */
export function valuesWorthShowing<VALUE extends ShownValue>(
  question: string,
  values: readonly VALUE[],
  options: ValuesWorthShowingOptions = {},
): VALUE[] {
  const minimum = options.minimumSimilarity ?? 0.7;
  const containedShare = options.minimumContainedShare ?? 0.4;
  const seen = new Set<string>();
  const shown: VALUE[] = [];
  for (const match of values) {
    const key = `${match.table}\u0000${match.column}\u0000${match.value}`;
    if (seen.has(key)) continue;
    if (options.schemaWords && restatesSchema(match.value, options.schemaWords)) continue;
    const asPhrase = phraseSimilarity(question, match.value);
    const asKeyword = typoSimilarity(match.keyword, match.value);
    const fits = asKeyword >= minimum || asPhrase >= minimum || isContainedMatch(question, match.value, containedShare);
    if (!fits) continue;
    seen.add(key);
    shown.push(match);
  }
  return shown;
}

/** Whether every word of the value is a word of the schema's names. */
function restatesSchema(value: string, schemaWords: ReadonlySet<string>): boolean {
  const valueWords = splitWordPieces(value);
  return valueWords.length > 0 && valueWords.every((word) => schemaWords.has(word) || schemaWords.has(stemWord(word)));
}

/**
 * Whether the value holds a question phrase as whole words (`Stanford` in 'Stanford University'), of four characters
 * or more and not only stop words, covering at least `share` of the value's characters.
 */
function isContainedMatch(question: string, value: string, share: number): boolean {
  const valueText = words(value).join(" ");
  const questionWords = words(question);
  for (let size = 1; size <= questionWords.length; size++) {
    for (let start = 0; start + size <= questionWords.length; start++) {
      const run = questionWords.slice(start, start + size);
      const phrase = run.join(" ");
      if (
        phrase.length >= 4 &&
        run.some((word) => !stopWords.has(word)) &&
        phrase.length / valueText.length >= share &&
        ` ${valueText} `.includes(` ${phrase} `)
      )
        return true;
    }
  }
  return false;
}
