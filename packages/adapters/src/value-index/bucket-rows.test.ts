import { describe, expect, it } from "vitest";
import { type BandKeyPiece, groupBucketRows, MAX_VALUES_PER_BUCKET_BATCH } from "./bucket-rows";

/** The rows as `band:key` → value numbers, grouped the obvious way. */
function naiveRows(pieces: readonly BandKeyPiece[], bands: number): Map<string, number[]> {
  const rows = new Map<string, number[]>();
  for (let band = 0; band < bands; band++) {
    for (const piece of pieces) {
      for (let offset = 0; offset < piece.bandKeys.length / bands; offset++) {
        const key = `${band}:${piece.bandKeys[offset * bands + band]! | 0}`;
        rows.set(key, [...(rows.get(key) ?? []), piece.firstValue + offset]);
      }
    }
  }
  return rows;
}

describe("groupBucketRows", () => {
  it("groups a batch's values into one row per band and key, keys ascending, value numbers ascending", () => {
    const bands = 3;
    // Two pieces with a gap in numbering between them (another batch's values), keys colliding within and across
    // pieces, and keys at and above 2^31 (stored as negative int4).
    const pieces: BandKeyPiece[] = [
      { firstValue: 10, bandKeys: Uint32Array.from([5, 0xffffffff, 7, 5, 2 ** 31, 8, 1, 0xffffffff, 7]) },
      { firstValue: 40, bandKeys: Uint32Array.from([5, 2 ** 31, 9, 0, 0, 0]) },
    ];
    const grouped = [...groupBucketRows(pieces, bands)];
    expect(grouped.map((rows) => rows.band)).toEqual([0, 1, 2]);
    const rows = new Map<string, number[]>();
    for (const band of grouped) {
      const unsignedKeys = Array.from(band.keys, (key) => key >>> 0);
      expect(unsignedKeys).toEqual([...unsignedKeys].sort((left, right) => left - right));
      expect(new Set(unsignedKeys).size).toBe(band.count);
      for (let row = 0; row < band.count; row++) {
        rows.set(`${band.band}:${band.keys[row]}`, [...band.numbers.subarray(band.starts[row], band.starts[row + 1])]);
      }
    }
    expect(rows).toEqual(naiveRows(pieces, bands));
    expect(rows.get("0:5")).toEqual([10, 11, 40]);
    expect(rows.get(`1:${(2 ** 31) | 0}`)).toEqual([11, 40]);
  });

  it("matches the obvious grouping on random keys", () => {
    let state = 12345;
    const random = () => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return state;
    };
    const bands = 4;
    const pieces: BandKeyPiece[] = [0, 1_000, 5_000].map((firstValue, position) => ({
      firstValue,
      bandKeys: Uint32Array.from({ length: (200 + position * 50) * bands }, () => random() % 97),
    }));
    const rows = new Map<string, number[]>();
    for (const band of groupBucketRows(pieces, bands)) {
      for (let row = 0; row < band.count; row++) {
        rows.set(`${band.band}:${band.keys[row]}`, [...band.numbers.subarray(band.starts[row], band.starts[row + 1])]);
      }
    }
    expect(rows).toEqual(naiveRows(pieces, bands));
  });

  it("yields nothing for an empty batch and rejects ragged pieces and oversized batches", () => {
    expect([...groupBucketRows([], 24)].every((rows) => rows.count === 0)).toBe(true);
    expect(() => [...groupBucketRows([{ firstValue: 0, bandKeys: new Uint32Array(5) }], 2)]).toThrow(
      /not a multiple of 2/,
    );
    expect(() => [
      ...groupBucketRows([{ firstValue: 0, bandKeys: new Uint32Array(MAX_VALUES_PER_BUCKET_BATCH + 1) }], 1),
    ]).toThrow(/at most 2097152 values/);
  });
});
