import type { Vector } from "../../embedding/vector-math";

/**
 * Exact cosine search over a fixed list of column vectors, as CRUSH needs it. Implemented densely by
 * `ColumnVectorIndex` and through postings lists by `SparseVectorIndex` (same scores and rankings).
 */
export interface ColumnSimilarityIndex {
  /** Number of indexed vectors. */
  readonly size: number;
  /** Cosine similarity of `query` to every vector, in index order. */
  similarities(query: Vector): Float64Array;
  /** Positions by cosine to `query`, best first (ties: lower position first), at most `limit`. */
  rank(query: Vector, limit?: number): number[];
}

/**
 * Exact in-memory cosine search over column vectors. Vectors are normalised once; a query's zero entries are
 * skipped, which makes sparse vectors (the offline embedder's) cheap and changes nothing for dense ones.
 */
export class ColumnVectorIndex implements ColumnSimilarityIndex {
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

  /** Column indexes by cosine to `query`, best first (ties: lower index first), at most `limit`. */
  rank(query: Vector, limit = this.vectors.length): number[] {
    return rankScores(this.similarities(query), limit);
  }
}

/** Indexes of `scores` from highest to lowest (ties: lower index first), at most `limit`. */
export function rankScores(scores: ArrayLike<number>, limit = scores.length): number[] {
  const count = scores.length;
  const kept = Math.max(0, Math.min(limit, count));
  const byScoreThenIndex = (left: number, right: number) => scores[right]! - scores[left]! || left - right;
  if (kept * 8 >= count) return sortedByPartition(scores, kept, byScoreThenIndex);
  // Partial selection for small limits (CRUSH probes keep ~60 of thousands): a size-k min-heap, O(n log k).
  const heap = new Int32Array(kept);
  let size = 0;
  const worse = (left: number, right: number) => byScoreThenIndex(left, right) > 0; // left ranks below right
  const siftDown = (start: number) => {
    let position = start;
    for (;;) {
      const leftChild = 2 * position + 1;
      let worst = position;
      if (leftChild < size && worse(heap[leftChild]!, heap[worst]!)) worst = leftChild;
      if (leftChild + 1 < size && worse(heap[leftChild + 1]!, heap[worst]!)) worst = leftChild + 1;
      if (worst === position) return;
      [heap[position], heap[worst]] = [heap[worst]!, heap[position]!];
      position = worst;
    }
  };
  for (let index = 0; index < count; index++) {
    if (size < kept) {
      heap[size] = index;
      let position = size++;
      while (position > 0) {
        const parent = (position - 1) >> 1;
        if (!worse(heap[position]!, heap[parent]!)) break;
        [heap[position], heap[parent]] = [heap[parent]!, heap[position]!];
        position = parent;
      }
    } else if (kept > 0 && worse(heap[0]!, index)) {
      heap[0] = index;
      siftDown(0);
    }
  }
  return Array.from(heap).sort(byScoreThenIndex);
}

/**
 * The full sort's first `kept` indexes, sorting only the non-zero scores: positives by score, then the zeros in index
 * order, then the negatives. Sparse vectors leave most scores at exactly 0, so this sorts a small fraction of them.
 */
function sortedByPartition(
  scores: ArrayLike<number>,
  kept: number,
  byScoreThenIndex: (left: number, right: number) => number,
): number[] {
  const positive: number[] = [];
  const negative: number[] = [];
  for (let index = 0; index < scores.length; index++) {
    const score = scores[index]!;
    if (score > 0) positive.push(index);
    else if (score < 0) negative.push(index);
  }
  const result = positive.sort(byScoreThenIndex);
  if (result.length >= kept) return result.slice(0, kept);
  for (let index = 0; index < scores.length && result.length < kept; index++)
    if (scores[index] === 0) result.push(index);
  if (result.length < kept) result.push(...negative.sort(byScoreThenIndex).slice(0, kept - result.length));
  return result;
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
