/**
 * Which of a result's measures the question asks for: "what is the average order value by store?" names
 * `average_order_value_usd`, not the `orders` count beside it. Words of the question and of each column name are
 * compared after folding plurals and -ed/-ing endings and a few synonyms (avg → average, sales → revenue); the
 * measures sharing the most words win. Pure: no model call, the same answer every time.
 */

/** Words that never decide between measures (units, fillers, the words of every question). */
const ignoredWords = new Set([
  "a",
  "an",
  "and",
  "are",
  "by",
  "did",
  "do",
  "does",
  "each",
  "for",
  "from",
  "how",
  "in",
  "is",
  "last",
  "of",
  "over",
  "per",
  "show",
  "the",
  "this",
  "to",
  "usd",
  "eur",
  "gbp",
  "was",
  "were",
  "what",
  "which",
  "who",
  "with",
  "year",
  "month",
  "our",
  "me",
  "most",
  "top",
  "total",
]);

/** Spellings folded to one word. */
const synonyms: Record<string, string> = {
  avg: "average",
  mean: "average",
  sale: "revenue",
  turnover: "revenue",
  income: "revenue",
  amount: "value",
  pct: "percent",
  percentage: "percent",
  qty: "quantity",
  cnt: "count",
  num: "count",
  spent: "spend",
  spending: "spend",
};

/** One word folded: lower case, a plural's or a past tense's ending dropped, synonyms merged. */
export function foldWord(word: string): string {
  let folded = word.toLowerCase();
  const direct = synonyms[folded];
  if (direct !== undefined) return direct;
  if (folded.length > 4 && folded.endsWith("ies")) folded = `${folded.slice(0, -3)}y`;
  else if (folded.length > 4 && folded.endsWith("ed")) folded = folded.slice(0, -2);
  else if (folded.length > 5 && folded.endsWith("ing")) folded = folded.slice(0, -3);
  else if (folded.length > 3 && folded.endsWith("s") && !folded.endsWith("ss")) folded = folded.slice(0, -1);
  return synonyms[folded] ?? folded;
}

/** The folded words of a text or a column name (`late_percent`, `averageOrderValue`), fillers left out. */
export function wordsOf(text: string): Set<string> {
  const split = text.replace(/([a-z])([A-Z])/g, "$1 $2").split(/[^\p{L}\p{N}]+/u);
  return new Set(
    split
      .filter((word) => word !== "")
      .map(foldWord)
      .filter((word) => !ignoredWords.has(word)),
  );
}

/** Words that ask for a count ("how many", "number of"), matched by count-like column names. */
const countQuestion = /\bhow many\b|\bnumber of\b|\bcount\b/i;
const countName = /(^|_)(count|number|total|n)(_|$)|^num_|_count$/i;

/**
 * The measures (column positions) the question names, best first; empty when it names none of them, so the caller
 * keeps its own default.
 */
export function measuresNamedByQuestion(
  question: string | undefined,
  names: ReadonlyArray<{ readonly column: number; readonly name: string }>,
): number[] {
  if (!question) return [];
  const asked = wordsOf(question);
  const scores = names.map(({ column, name }) => {
    let score = 0;
    for (const word of wordsOf(name)) if (asked.has(word)) score += 1;
    if (score === 0 && countQuestion.test(question) && countName.test(name)) score = 1;
    return { column, score };
  });
  const best = Math.max(0, ...scores.map((entry) => entry.score));
  if (best === 0) return [];
  return scores.filter((entry) => entry.score === best).map((entry) => entry.column);
}
