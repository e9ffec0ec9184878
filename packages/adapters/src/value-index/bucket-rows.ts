/** The most values one batch of bucket rows may group (its local value numbers are packed beside a 32-bit key). */
export const MAX_VALUES_PER_BUCKET_BATCH = 2 ** 21;

/** A run of consecutive values of a generation with their band keys (`bands` keys per value, value after value). */
export interface BandKeyPiece {
  /** The value number of the piece's first value. */
  readonly firstValue: number;
  readonly bandKeys: Uint32Array;
}

/**
 * The bucket rows of one band of a batch, column-wise and ordered by key: row `r` is bucket key `keys[r]` (uint32 as
 * int4) with the value numbers `numbers[starts[r]] … numbers[starts[r + 1] - 1]`, ascending.
 */
export interface BandBucketRows {
  readonly band: number;
  readonly count: number;
  readonly keys: Int32Array;
  /** `count + 1` offsets into `numbers`. */
  readonly starts: Int32Array;
  readonly numbers: Int32Array;
}

/**
 * Groups a batch of pieces into LSH bucket rows, one band after the other (so that a band's rows can be written and
 * dropped before the next is grouped): the batch's values sorted by their key in the band (one numeric sort of
 * key · 2^21 + local number, exact in a double), then one row per run of equal keys. A bucket whose values fall into
 * several batches gets one row per batch. About 20 bytes a value are held besides the pieces.
 */
export function* groupBucketRows(pieces: readonly BandKeyPiece[], bands: number): Generator<BandBucketRows> {
  let valueCount = 0;
  for (const piece of pieces) {
    if (piece.bandKeys.length % bands !== 0)
      throw new RangeError(`a piece has ${piece.bandKeys.length} band keys, not a multiple of ${bands}`);
    valueCount += piece.bandKeys.length / bands;
  }
  if (valueCount > MAX_VALUES_PER_BUCKET_BATCH)
    throw new RangeError(`a bucket batch holds at most ${MAX_VALUES_PER_BUCKET_BATCH} values, not ${valueCount}`);
  const valueNumbers = new Int32Array(valueCount);
  let local = 0;
  for (const piece of pieces) {
    const count = piece.bandKeys.length / bands;
    for (let offset = 0; offset < count; offset++) valueNumbers[local++] = piece.firstValue + offset;
  }
  const packed = new Float64Array(valueCount);
  for (let band = 0; band < bands; band++) {
    local = 0;
    for (const piece of pieces) {
      const keys = piece.bandKeys;
      for (let at = band; at < keys.length; at += bands)
        packed[local] = keys[at]! * MAX_VALUES_PER_BUCKET_BATCH + local++;
    }
    packed.sort();
    const keys = new Int32Array(valueCount);
    const starts = new Int32Array(valueCount + 1);
    const numbers = new Int32Array(valueCount);
    let rows = 0;
    let previousKey = -1;
    for (let position = 0; position < valueCount; position++) {
      const entry = packed[position]!;
      const key = Math.floor(entry / MAX_VALUES_PER_BUCKET_BATCH);
      if (key !== previousKey) {
        starts[rows] = position;
        keys[rows++] = key | 0;
        previousKey = key;
      }
      numbers[position] = valueNumbers[entry - key * MAX_VALUES_PER_BUCKET_BATCH]!;
    }
    starts[rows] = valueCount;
    yield { band, count: rows, keys: keys.subarray(0, rows), starts: starts.subarray(0, rows + 1), numbers };
  }
}
