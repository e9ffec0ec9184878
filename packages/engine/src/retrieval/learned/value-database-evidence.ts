import { type ColumnValueHit, columnValueVotes } from "./value-vote-fusion";

/** Options of `valueDatabaseEvidence`. */
export interface ValueDatabaseEvidenceOptions {
  /** Hits below this edit similarity are no evidence. Default 0.85, as for `columnValueVotes`. */
  readonly minSimilarity?: number;
  /**
   * Learnt-score units added per unit of a database's best value vote. Default 2 (chosen on the Spider tuning split
   * among 0.25–4; BENCHMARKS.md "retrieval-model-v3").
   */
  readonly weight?: number;
}

/**
 * Value hits as database evidence: per database, `weight` × the best value vote (`columnValueVotes`: similarity /
 * √(columns the keyword hits)) among its columns. A value the question names that occurs in one database's rows only
 * (`San Jose State University` in `csu_1.campuses.campus`) points at that database, even when its schema words match
 * a look-alike better; a value found in many databases' columns is spread thin and tells little. The learnt ranking
 * adds the evidence to the score of every candidate column of that database, so the database's other columns (keys,
 * projections, numbers, which no value names) rise with it. Pure; keyed by database name.
 */
export function valueDatabaseEvidence(
  hits: readonly ColumnValueHit[],
  databaseOf: (column: number) => string,
  options: ValueDatabaseEvidenceOptions = {},
): Map<string, number> {
  const weight = options.weight ?? 2;
  const evidence = new Map<string, number>();
  if (weight === 0) return evidence;
  for (const [column, vote] of columnValueVotes(hits, options.minSimilarity)) {
    const database = databaseOf(column);
    evidence.set(database, Math.max(evidence.get(database) ?? 0, weight * vote));
  }
  return evidence;
}
