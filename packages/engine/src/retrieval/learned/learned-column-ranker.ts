import { rankScores } from "../crush/dense-column-ranking";
import { type SchemaColumn, schemaTableKey } from "../crush/schema-column";
import { CompoundIdentifierSplitter } from "./compound-identifier-splitter";
import {
  type ColumnTokens,
  columnTokens,
  denseFeatureNames,
  isKeyLike,
  nameTokens,
  sparseFeatureKeys,
} from "./learned-features";
import type { LearnedRetrievalModel } from "./learned-retrieval-model";
import { SchemaTermCoverage } from "./schema-term-coverage";
import { SparseWeightIndex } from "./sparse-weight-index";

/** The features of one candidate column for one question (what the model scores and the trainer fits). */
export interface CandidateFeatures {
  /** Column index in the catalog. */
  readonly column: number;
  /** Values in `denseFeatureNames` order. */
  readonly dense: readonly number[];
  readonly sparse: readonly string[];
}

/**
 * Re-ranks a catalog's columns for a question with a learnt model: the lexical top `candidateLimit` columns (by the
 * similarities given, e.g. the offline embedder's cosines) are scored by the model and sorted by that score; the
 * remaining columns follow in lexical order. Pure: build once per catalog, call per question.
 */
export class LearnedColumnRanker {
  readonly #tokens: ColumnTokens[];
  readonly #keyLike: boolean[];
  readonly #tableOf: Int32Array;
  readonly #databaseOf: Int32Array;
  readonly #tableCount: number;
  readonly #databaseCount: number;
  /** Database name → database id. */
  readonly #databaseIds: ReadonlyMap<string, number>;
  readonly #coverage: SchemaTermCoverage;
  /** ln(1 + columns) / 10 per database id and per table id. */
  readonly #databaseSize: Float64Array;
  readonly #tableSize: Float64Array;
  readonly #sparseWeights: SparseWeightIndex | undefined;

  constructor(
    readonly columns: readonly SchemaColumn[],
    readonly model?: LearnedRetrievalModel,
  ) {
    const splitter = CompoundIdentifierSplitter.fromNames(
      columns.flatMap((column) => [column.column, column.table, column.database ?? ""]),
    );
    this.#tokens = columns.map((column) => columnTokens(column, splitter));
    this.#keyLike = this.#tokens.map(isKeyLike);
    const tables = new Map<string, number>();
    const databases = new Map<string, number>();
    this.#tableOf = Int32Array.from(columns, (column) => groupId(tables, schemaTableKey(column)));
    this.#databaseOf = Int32Array.from(columns, (column) => groupId(databases, column.database ?? ""));
    this.#tableCount = tables.size;
    this.#databaseCount = databases.size;
    this.#databaseIds = databases;
    const databaseTokens = Array.from({ length: databases.size }, () => new Set<string>());
    const tableTokens = Array.from({ length: tables.size }, () => new Set<string>());
    for (const [name, database] of databases)
      for (const token of nameTokens(name, splitter)) databaseTokens[database]!.add(token);
    this.#tokens.forEach((tokens, column) => {
      for (const token of [...tokens.column, ...tokens.table]) {
        databaseTokens[this.#databaseOf[column]!]!.add(token);
        tableTokens[this.#tableOf[column]!]!.add(token);
      }
    });
    this.#coverage = new SchemaTermCoverage(databaseTokens, tableTokens);
    this.#databaseSize = sizes(this.#databaseOf, databases.size);
    this.#tableSize = sizes(this.#tableOf, tables.size);
    this.#sparseWeights = model ? new SparseWeightIndex(model.sparse) : undefined;
  }

  /**
   * Features of the lexical top `limit` columns (by `similarities`, one per column), best lexical first; or of the
   * `chosen` column indexes when given (the trainer adds gold columns outside the top).
   */
  candidates(
    terms: readonly string[],
    similarities: ArrayLike<number>,
    limit: number,
    chosen?: readonly number[],
  ): CandidateFeatures[] {
    return this.#denseCandidates(terms, similarities, limit, chosen).map(({ column, dense }) => ({
      column,
      dense,
      sparse: sparseFeatureKeys(terms, this.#tokens[column]!),
    }));
  }

  #denseCandidates(
    terms: readonly string[],
    similarities: ArrayLike<number>,
    limit: number,
    chosen?: readonly number[],
  ): { column: number; dense: number[] }[] {
    const tableBest = new Float64Array(this.#tableCount).fill(Number.NEGATIVE_INFINITY);
    const databaseBest = new Float64Array(this.#databaseCount).fill(Number.NEGATIVE_INFINITY);
    let best = 0;
    for (let column = 0; column < similarities.length; column++) {
      const similarity = similarities[column]!;
      const table = this.#tableOf[column]!;
      const database = this.#databaseOf[column]!;
      if (similarity > tableBest[table]!) tableBest[table] = similarity;
      if (similarity > databaseBest[database]!) databaseBest[database] = similarity;
      if (similarity > best) best = similarity;
    }
    const scale = best > 0 ? 1 / best : 0;
    const coverage = this.#coverage.coverage(terms);
    const databaseRank = reciprocalRanks(coverage.database);
    const databaseScale = coverage.bestDatabase > 0 ? 1 / coverage.bestDatabase : 0;
    const tableScale = coverage.bestTable > 0 ? 1 / coverage.bestTable : 0;
    return (chosen ?? rankScores(similarities, limit)).map((column) => {
      const similarity = similarities[column]!;
      const database = this.#databaseOf[column]!;
      const table = this.#tableOf[column]!;
      const dense = [
        similarity,
        similarity * scale,
        tableBest[table]! * scale,
        databaseBest[database]! * scale,
        this.#keyLike[column] ? 1 : 0,
        coverage.database[database]!,
        coverage.database[database]! * databaseScale,
        coverage.bestDatabase > 0 ? databaseRank[database]! : 0,
        coverage.table[table]!,
        coverage.table[table]! * tableScale,
        this.#databaseSize[database]!,
        this.#tableSize[table]!,
      ];
      return { column, dense };
    });
  }

  /**
   * Column indexes, best first, at most `limit`: learnt order over the candidates, then lexical order.
   * `databaseEvidence` (database name → score units, e.g. `valueDatabaseEvidence`) is added to the learnt score of
   * every candidate column of that database; without a model it is ignored.
   */
  rank(
    terms: readonly string[],
    similarities: ArrayLike<number>,
    limit: number,
    databaseEvidence?: ReadonlyMap<string, number>,
  ): number[] {
    const model = this.model;
    if (!model) return rankScores(similarities, limit);
    const candidates = this.#denseCandidates(terms, similarities, model.candidateLimit);
    const sparse = this.#sparseWeights!.forQuestion(terms);
    const bonus = new Float64Array(this.#databaseCount);
    for (const [database, evidence] of databaseEvidence ?? []) {
      const id = this.#databaseIds.get(database);
      if (id !== undefined) bonus[id] = evidence;
    }
    // the same sum as scoreCandidate over candidates(), without building the sparse feature keys
    const scores = candidates.map(
      (candidate) =>
        denseScore(model, candidate.dense) +
        sparse.score(this.#tokens[candidate.column]!) +
        bonus[this.#databaseOf[candidate.column]!]!,
    );
    const order = rankScores(scores).map((position) => candidates[position]!.column);
    if (order.length >= limit) return order.slice(0, limit);
    const seen = new Set(order);
    for (const column of rankScores(similarities, Math.min(similarities.length, limit + order.length))) {
      if (order.length >= limit) break;
      if (!seen.has(column)) order.push(column);
    }
    return order;
  }
}

/** The model's score of one candidate: dense weights · dense features + the sum of its known sparse weights. */
export function scoreCandidate(model: LearnedRetrievalModel, candidate: CandidateFeatures): number {
  let score = denseScore(model, candidate.dense);
  for (const key of candidate.sparse) score += model.sparse.get(key) ?? 0;
  return score;
}

function denseScore(model: LearnedRetrievalModel, dense: readonly number[]): number {
  let score = 0;
  denseFeatureNames.forEach((name, position) => {
    score += model.dense[name] * dense[position]!;
  });
  return score;
}

/** 1 / (1 + the number of entries strictly larger), per entry: ties share the better rank. */
function reciprocalRanks(values: Float64Array): Float64Array {
  const sorted = Float64Array.from(values).sort().reverse();
  return values.map((value) => {
    let larger = 0;
    while (larger < sorted.length && sorted[larger]! > value) larger++;
    return 1 / (1 + larger);
  });
}

function sizes(groupOf: Int32Array, groups: number): Float64Array {
  const counts = new Float64Array(groups);
  for (const group of groupOf) counts[group]! += 1;
  return counts.map((count) => Math.log1p(count) / 10);
}

function groupId(groups: Map<string, number>, key: string): number {
  let id = groups.get(key);
  if (id === undefined) {
    id = groups.size;
    groups.set(key, id);
  }
  return id;
}
