import {
  createQuestionColumnRanking,
  type LearnedRetrievalModel,
  type SchemaColumn,
  schemaColumnKey,
} from "@nlq/engine";
import { meanRecallByBudget } from "@nlq/eval";
import type { LabelledQuestion } from "./training-data";

const budgets = [3, 5, 10, 20, 50, 100];

/** Question-only recall@k of the lexical ranking and of the learnt re-ranking over a whole corpus. */
export function validationRecall(
  corpus: readonly SchemaColumn[],
  questions: readonly LabelledQuestion[],
  model: LearnedRetrievalModel,
): Record<string, Record<string, number>> {
  const keys = corpus.map(schemaColumnKey);
  const measure = (ranking: ReturnType<typeof createQuestionColumnRanking>) =>
    meanRecallByBudget(
      questions.map((question) => ({
        gold: question.gold,
        retrieved: ranking.rank(question.question, 100).map((column) => keys[column]!),
      })),
      budgets,
    );
  const round = (recall: Record<string, number>) =>
    Object.fromEntries(Object.entries(recall).map(([budget, value]) => [budget, Math.round(value * 1000) / 1000]));
  return {
    lexical: round(measure(createQuestionColumnRanking(corpus))),
    learnt: round(measure(createQuestionColumnRanking(corpus, model))),
  };
}
