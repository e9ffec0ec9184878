import type { LearnedRetrievalModel, SchemaColumn } from "@nlq/engine";
import { createQuestionColumnRanking } from "@nlq/engine";

/** Fuses two rankings by reciprocal rank (k = 60): a column high in either list ranks high. */
export function fuseRankings(first: readonly number[], second: readonly number[], limit: number): number[] {
  const scores = new Map<number, number>();
  for (const ranking of [first, second])
    ranking.forEach((column, rank) => {
      scores.set(column, (scores.get(column) ?? 0) + 1 / (60 + rank + 1));
    });
  return [...scores.entries()]
    .sort((left, right) => right[1] - left[1] || left[0] - right[0])
    .slice(0, limit)
    .map(([column]) => column);
}

/**
 * Question-only rankings by the learnt model (the ranking the live selector uses), with the time each question took
 * (embedding the question, lexical search, learnt re-ranking), in milliseconds.
 */
export function rankQuestionsWithLearnedModel(
  corpus: readonly SchemaColumn[],
  questions: readonly string[],
  model: LearnedRetrievalModel,
  budget: number,
): { rankings: number[][]; milliseconds: number[] } {
  const ranking = createQuestionColumnRanking(corpus, model);
  const milliseconds: number[] = [];
  const rankings = questions.map((question) => {
    const started = performance.now();
    const ranked = ranking.rank(question, budget);
    milliseconds.push(performance.now() - started);
    return ranked;
  });
  return { rankings, milliseconds };
}
