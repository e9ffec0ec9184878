import type { Vector } from "../../embedding/vector-math";
import { type ColumnSimilarityIndex, rankScores } from "../crush/dense-column-ranking";

/**
 * Exact cosine search for sparse vectors (the offline embedder's: ~60 non-zero of 2,048 dimensions per column text)
 * through postings lists: a query costs the summed postings length of its non-zero dimensions instead of
 * points × dimensions. Results equal a dense exact scan (same scores; ties broken by lower index), so it can stand in
 * for CRUSH's `ColumnVectorIndex`.
 */
export class SparseVectorIndex implements ColumnSimilarityIndex {
  readonly #count: number;
  readonly #postingIds: Int32Array[];
  readonly #postingWeights: Float64Array[];

  constructor(vectors: readonly Vector[]) {
    this.#count = vectors.length;
    const dimensions = vectors.reduce((largest, vector) => Math.max(largest, vector.length), 0);
    const ids: number[][] = Array.from({ length: dimensions }, () => []);
    const weights: number[][] = Array.from({ length: dimensions }, () => []);
    vectors.forEach((vector, point) => {
      let squares = 0;
      for (let position = 0; position < vector.length; position++) squares += vector[position]! * vector[position]!;
      if (squares === 0) return;
      const inverse = 1 / Math.sqrt(squares);
      for (let position = 0; position < vector.length; position++) {
        const value = vector[position]!;
        if (value === 0) continue;
        ids[position]!.push(point);
        weights[position]!.push(value * inverse);
      }
    });
    this.#postingIds = ids.map((list) => Int32Array.from(list));
    this.#postingWeights = weights.map((list) => Float64Array.from(list));
  }

  get size(): number {
    return this.#count;
  }

  /** Cosine similarity of `query` to every point, in point order. */
  similarities(query: Vector): Float64Array {
    const result = new Float64Array(this.#count);
    let squares = 0;
    for (let position = 0; position < query.length; position++) squares += query[position]! * query[position]!;
    if (squares === 0) return result;
    const inverse = 1 / Math.sqrt(squares);
    const limit = Math.min(query.length, this.#postingIds.length);
    for (let position = 0; position < limit; position++) {
      const value = query[position]!;
      if (value === 0) continue;
      const weight = value * inverse;
      const ids = this.#postingIds[position]!;
      const weights = this.#postingWeights[position]!;
      for (let entry = 0; entry < ids.length; entry++) result[ids[entry]!]! += weight * weights[entry]!;
    }
    return result;
  }

  /** Point indexes by cosine to `query`, best first (ties: lower index first), at most `limit`. */
  rank(query: Vector, limit = this.#count): number[] {
    return rankScores(this.similarities(query), limit);
  }
}
