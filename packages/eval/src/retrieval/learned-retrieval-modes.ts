import type {
  ColumnValueHit,
  LearnedRetrievalModel,
  SchemaColumn,
  ValueIndex,
  ValueVoteFusionOptions,
} from "@nlq/engine";
import {
  createQuestionColumnRanking,
  heuristicKeywords,
  inferKeyLinks,
  retrieveEntities,
  schemaColumnKey,
} from "@nlq/engine";

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
export async function rankQuestionsWithLearnedModel(
  corpus: readonly SchemaColumn[],
  questions: readonly string[],
  model: LearnedRetrievalModel,
  budget: number,
  steps: {
    readonly valueIndex?: ValueIndex;
    readonly valueFusion?: ValueVoteFusionOptions;
    readonly structure?: boolean;
  } = {},
): Promise<{ rankings: number[][]; milliseconds: number[] }> {
  const ranking = createQuestionColumnRanking(corpus, model, { links: inferKeyLinks(corpus) });
  const positions = new Map(corpus.map((column, position) => [schemaColumnKey(column).toLowerCase(), position]));
  const milliseconds: number[] = [];
  const rankings: number[][] = [];
  for (const question of questions) {
    const started = performance.now();
    const valueHits = steps.valueIndex ? await questionValueHits(steps.valueIndex, question, positions) : undefined;
    rankings.push(
      ranking.rank(question, budget, { valueHits, valueFusion: steps.valueFusion, structure: steps.structure }),
    );
    milliseconds.push(performance.now() - started);
  }
  return { rankings, milliseconds };
}

/**
 * The question's heuristic keywords (quoted strings, capitalised spans, numbers, content words: what the live
 * retriever uses when keyword extraction has no model) looked up in the value index as the live retriever does
 * (`retrieveEntities`: LSH, Jaccard top 10, edit distance, best value per column), mapped to corpus columns.
 */
export async function questionValueHits(
  index: ValueIndex,
  question: string,
  positions: ReadonlyMap<string, number>,
): Promise<ColumnValueHit[]> {
  const entities = await retrieveEntities({ index, keywords: heuristicKeywords(question), readableColumns: "all" });
  return entities.flatMap(({ keyword, matches }) =>
    matches.flatMap((match) => {
      const column = positions.get(`${match.column.schema}.${match.column.table}.${match.column.column}`.toLowerCase());
      return column === undefined ? [] : [{ keyword, column, similarity: match.editSimilarity }];
    }),
  );
}
