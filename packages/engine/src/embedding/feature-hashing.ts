/** 32-bit FNV-1a hash of a string (deterministic across runs and platforms). */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let position = 0; position < text.length; position++) {
    hash ^= text.charCodeAt(position);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * Adds `weight` for `feature` into `vector` at a hashed slot with a hashed sign (the signed "hashing trick",
 * so collisions cancel out in expectation instead of inflating similarity).
 */
export function addHashedFeature(vector: Float64Array, feature: string, weight: number): void {
  const hash = fnv1a(feature);
  const slot = hash % vector.length;
  const sign = (hash >>> 31) & 1 ? -1 : 1;
  vector[slot] = (vector[slot] ?? 0) + sign * weight;
}

/** Scales `vector` in place to unit Euclidean length (a zero vector stays zero). */
export function normalizeInPlace(vector: Float64Array): Float64Array {
  let squares = 0;
  for (const value of vector) squares += value * value;
  if (squares === 0) return vector;
  const inverse = 1 / Math.sqrt(squares);
  for (let position = 0; position < vector.length; position++) vector[position] = (vector[position] ?? 0) * inverse;
  return vector;
}
