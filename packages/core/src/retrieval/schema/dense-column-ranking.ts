import type { Vector } from "../../embedding/vector-math";

/**
 * Exact in-memory cosine search over column vectors. Vectors are normalised once; a query's zero entries are
 * skipped, which makes sparse vectors (the offline embedder's) cheap and changes nothing for dense ones.
 */
export class ColumnVectorIndex {
  private readonly vectors: Float64Array[];

  constructor(columnVectors: readonly Vector[]) {
    this.vectors = columnVectors.map(normalised);
  }

  get size(): number {
    return this.vectors.length;
  }

  /** Cosine similarity of `query` to every column, in column order. */
  similarities(query: Vector): Float64Array {
    const unit = normalised(query);
    const activePositions: number[] = [];
    const activeValues: number[] = [];
    for (let position = 0; position < unit.length; position++) {
      const value = unit[position]!;
      if (value !== 0) {
        activePositions.push(position);
        activeValues.push(value);
      }
    }
    const activeCount = activePositions.length;
    const result = new Float64Array(this.vectors.length);
    for (let column = 0; column < this.vectors.length; column++) {
      const vector = this.vectors[column]!;
      let sum = 0;
      for (let active = 0; active < activeCount; active++)
        sum += activeValues[active]! * vector[activePositions[active]!]!;
      result[column] = sum;
    }
    return result;
  }

  /** Cosine similarity of `query` to the given columns. */
  similaritiesTo(query: Vector, columns: readonly number[]): number[] {
    const all = this.similarities(query);
    return columns.map((column) => all[column] ?? 0);
  }

  /** Column indexes by cosine to `query`, best first (ties: lower index first), at most `limit`. */
  rank(query: Vector, limit = this.vectors.length): number[] {
    return rankScores(this.similarities(query), limit);
  }
}

/** Indexes of `scores` from highest to lowest (ties: lower index first), at most `limit`. */
export function rankScores(scores: ArrayLike<number>, limit = scores.length): number[] {
  const order = Array.from({ length: scores.length }, (_, index) => index);
  order.sort((left, right) => scores[right]! - scores[left]! || left - right);
  return order.slice(0, limit);
}

function normalised(vector: Vector): Float64Array {
  const copy = Float64Array.from(vector);
  let squares = 0;
  for (const value of copy) squares += value * value;
  if (squares > 0) {
    const inverse = 1 / Math.sqrt(squares);
    for (let position = 0; position < copy.length; position++) copy[position] = copy[position]! * inverse;
  }
  return copy;
}
