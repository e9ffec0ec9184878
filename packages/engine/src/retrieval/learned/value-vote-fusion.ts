/** One value-index hit of a question keyword, resolved to a catalog column index. */
export interface ColumnValueHit {
  readonly keyword: string;
  /** Column index in the catalog. */
  readonly column: number;
  /** 1 − normalised edit distance between keyword and value (1 = exact, case-insensitive). */
  readonly similarity: number;
}

/** Options of `fuseValueVotes`. */
export interface ValueVoteFusionOptions {
  /** Hits below this edit similarity do not vote. Default 0.85 (an exact value or one typo in a long name). */
  readonly minSimilarity?: number;
  /** Weight of a column's vote against the ranking's reciprocal rank. Default 0.5 (chosen on 800 Spider training-database questions from weights 0.1–1). */
  readonly weight?: number;
  /** Reciprocal-rank constant k of 1/(k + rank). Default 60. */
  readonly rankConstant?: number;
}

/**
 * Each column's value vote: the best over the keywords of similarity / √(columns that keyword hits). A keyword whose
 * value occurs in one column (`Rotterdam` → `city.name`) votes fully; one found in many columns (`France` in twenty
 * `country` columns) is spread thin.
 */
export function columnValueVotes(hits: readonly ColumnValueHit[], minSimilarity = 0.85): Map<number, number> {
  const columnsByKeyword = new Map<string, Map<number, number>>();
  for (const hit of hits) {
    if (hit.similarity < minSimilarity) continue;
    const columns = columnsByKeyword.get(hit.keyword) ?? new Map<number, number>();
    columnsByKeyword.set(hit.keyword, columns);
    columns.set(hit.column, Math.max(columns.get(hit.column) ?? 0, hit.similarity));
  }
  const votes = new Map<number, number>();
  for (const columns of columnsByKeyword.values()) {
    const spread = 1 / Math.sqrt(columns.size);
    for (const [column, similarity] of columns)
      votes.set(column, Math.max(votes.get(column) ?? 0, similarity * spread));
  }
  return votes;
}

/**
 * Value-aware retrieval: fuses a question-only ranking with the columns whose values the question names. Score of a
 * column = 1/(k + rank + 1) (0 when unranked; rank from 0) + weight · vote/(k + 1): with the defaults (k = 60,
 * weight 0.5) a full vote is worth half of first place's score, enough to lift a ranked value column to the top and to
 * place an unranked one about 60 places down; a spread-out vote lifts it less. Ties keep the ranking's order. Pure;
 * returns at most `limit` column indexes, best first.
 */
export function fuseValueVotes(
  ranking: readonly number[],
  hits: readonly ColumnValueHit[],
  limit: number,
  options: ValueVoteFusionOptions = {},
): number[] {
  const votes = columnValueVotes(hits, options.minSimilarity);
  if (votes.size === 0) return ranking.slice(0, limit);
  const constant = options.rankConstant ?? 60;
  const weight = options.weight ?? 0.5;
  const scores = new Map<number, { score: number; order: number }>();
  ranking.forEach((column, rank) => {
    scores.set(column, { score: 1 / (constant + rank + 1), order: rank });
  });
  for (const [column, vote] of votes) {
    const current = scores.get(column);
    const bonus = (weight * vote) / (constant + 1);
    if (current) current.score += bonus;
    else scores.set(column, { score: bonus, order: ranking.length + column });
  }
  return [...scores.entries()]
    .sort((left, right) => right[1].score - left[1].score || left[1].order - right[1].order)
    .slice(0, limit)
    .map(([column]) => column);
}
