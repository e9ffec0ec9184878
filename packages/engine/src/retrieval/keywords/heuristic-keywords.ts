import { distinctKeywords } from "./extract-keywords";

const stopWords = new Set(
  (
    "a an and are as at be by did do does each for from had has have how i in is it its list many me much my of on or " +
    "show tell than that the their them there these they this those to was were what when where which who whom whose " +
    "why with all any give find return number count name names per more most less least"
  ).split(" "),
);

/**
 * Keywords without a model (used when the `extract-keywords` step is switched off, and by benchmarks): quoted
 * phrases, runs of capitalised words (named entities), numbers, and the remaining content words.
 */
export function heuristicKeywords(question: string): string[] {
  const keywords: string[] = [...namedValues(question)];
  for (const match of question.matchAll(/\b\d+(?:[.,]\d+)?\b/g)) keywords.push(match[0]);
  for (const word of question.toLowerCase().match(/[a-z][a-z0-9_-]+/g) ?? []) {
    if (!stopWords.has(word) && word.length > 2) keywords.push(word);
  }
  return distinctKeywords(keywords);
}

/**
 * The question's quoted phrases and runs of capitalised words (named entities: `Missisauga`, `San Francisco`), as
 * written: the spans most likely to name a stored value. Probed whatever `extract-keywords` answers, so a value the
 * question names is looked up even when the model's keywords miss or mangle it.
 */
export function namedValues(question: string): string[] {
  const values: string[] = [];
  for (const match of question.matchAll(/["“'‘]([^"”'’]{2,})["”'’]/g)) values.push(match[1]!);
  for (const match of question.matchAll(/(?<![.?!]\s|^)\b([A-Z][\w&.-]*(?:\s+(?:of\s+|de\s+)?[A-Z][\w&.-]*)*)/g))
    values.push(match[1]!);
  return distinctKeywords(values);
}
