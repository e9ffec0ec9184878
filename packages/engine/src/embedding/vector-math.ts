/** A dense embedding vector (what AI SDK embedding models return). */
export type Vector = ArrayLike<number>;

/** Dot product of two equally long vectors. */
export function dot(left: Vector, right: Vector): number {
  let sum = 0;
  const length = Math.min(left.length, right.length);
  for (let position = 0; position < length; position++) sum += (left[position] ?? 0) * (right[position] ?? 0);
  return sum;
}

/** Cosine similarity in [-1, 1]; 0 when either vector is zero. */
export function cosineSimilarity(left: Vector, right: Vector): number {
  const denominator = Math.sqrt(dot(left, left) * dot(right, right));
  return denominator === 0 ? 0 : dot(left, right) / denominator;
}

/** Weighted sum of vectors, scaled to unit length. */
export function mixVectors(parts: ReadonlyArray<{ vector: Vector; weight: number }>): number[] {
  const length = parts[0]?.vector.length ?? 0;
  const mixed = new Array<number>(length).fill(0);
  for (const { vector, weight } of parts) {
    for (let position = 0; position < length; position++) mixed[position]! += weight * (vector[position] ?? 0);
  }
  const norm = Math.sqrt(dot(mixed, mixed));
  return norm === 0 ? mixed : mixed.map((value) => value / norm);
}
