import type { VerifiedExample } from "../contract/answer";

// One similarity for every place that picks verified examples for a question: the web app (examples accepted or
// corrected by its users) and `nlq eval --compare-verified-examples` (gold pairs of the other half of a question set).

/** Words that say nothing about which data a question wants. */
const stopWords = new Set(
  "a an and are as at be by did do does for from has have how i in is it me of on or our show that the their there this to was we were what when which who whose with you your list give tell many much".split(
    " ",
  ),
);

/** The content words of a question: lower case, letters and digits, crude plural folding, no stop words. */
export function questionWords(question: string): Set<string> {
  const words = question.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return new Set(
    words
      .filter((word) => !stopWords.has(word))
      .map((word) => (word.length > 3 && word.endsWith("s") && !word.endsWith("ss") ? word.slice(0, -1) : word)),
  );
}

/** Jaccard similarity of two questions' content words, 0..1. */
export function questionSimilarity(first: string, second: string): number {
  const a = questionWords(first);
  const b = questionWords(second);
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const word of a) if (b.has(word)) shared += 1;
  return shared / (a.size + b.size - shared);
}

/**
 * The pairs most similar to `question` (lexical: Jaccard over content words), best first: at most `limit` (default 3)
 * with similarity ≥ `minimumSimilarity` (default 0.3).
 */
export function similarExamples<T extends VerifiedExample>(
  question: string,
  examples: readonly T[],
  limit = 3,
  minimumSimilarity = 0.3,
): T[] {
  return examples
    .map((example) => ({ example, score: questionSimilarity(question, example.question) }))
    .filter((scored) => scored.score >= minimumSimilarity)
    .sort((first, second) => second.score - first.score)
    .slice(0, limit)
    .map((scored) => scored.example);
}
