/**
 * Character 3-grams (CHESS uses 3-grams) of a normalized string, hashed to 32-bit integers.
 * The string is padded with one space on each side so that short values ("Ohio") and word
 * boundaries still yield grams, and a keyword that contains a value ("alameda county" ⊃ "alameda")
 * shares the boundary grams with it.
 */

/** Length of a gram in UTF-16 code units. */
export const GRAM_LENGTH = 3;

/** Murmur3's 32-bit finalizer: a fast, well-mixing bijection on 32-bit integers. */
export function mix32(input: number): number {
  let hash = input | 0;
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/**
 * Writes the 32-bit hashes of the padded 3-grams of an already normalized string into `target` (at least
 * `normalized.length` long) in text order, duplicates included, and returns how many (`normalized.length`, 0 for an
 * empty string). For MinHash, whose minima do not depend on order or duplicates, without allocating.
 */
export function writeGramHashes(normalized: string, target: Uint32Array): number {
  const count = normalized.length;
  if (count === 0) return 0;
  if (target.length < count) throw new RangeError(`${count} gram hashes do not fit in ${target.length}`);
  const space = 0x20;
  for (let position = 0; position < count; position++) {
    const first = position === 0 ? space : normalized.charCodeAt(position - 1);
    const second = normalized.charCodeAt(position);
    const third = position + 1 === count ? space : normalized.charCodeAt(position + 1);
    target[position] = mix32(
      Math.imul(first, 0x9e3779b1) ^ Math.imul(second, 0x85ebca77) ^ Math.imul(third, 0x27d4eb2f),
    );
  }
  return count;
}

/**
 * Sorted, duplicate-free 32-bit hashes of the padded 3-grams of an already normalized string.
 * An empty string yields no grams.
 */
export function gramHashes(normalized: string): Uint32Array {
  const hashes = new Uint32Array(normalized.length);
  const count = writeGramHashes(normalized, hashes);
  hashes.sort();
  let unique = 0;
  for (let position = 0; position < count; position++) {
    if (position === 0 || hashes[position] !== hashes[unique - 1]) hashes[unique++] = hashes[position]!;
  }
  return hashes.subarray(0, unique);
}

/** Exact Jaccard similarity |A ∩ B| / |A ∪ B| of two sorted duplicate-free gram sets. */
export function jaccard(left: Uint32Array, right: Uint32Array): number {
  if (left.length === 0 && right.length === 0) return 1;
  let leftPosition = 0;
  let rightPosition = 0;
  let shared = 0;
  while (leftPosition < left.length && rightPosition < right.length) {
    const leftValue = left[leftPosition]!;
    const rightValue = right[rightPosition]!;
    if (leftValue === rightValue) {
      shared++;
      leftPosition++;
      rightPosition++;
    } else if (leftValue < rightValue) leftPosition++;
    else rightPosition++;
  }
  return shared / (left.length + right.length - shared);
}
