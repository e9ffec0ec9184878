import { mix32 } from "./shingles";

/**
 * MinHash with banding (LSH) over hashed 3-grams.
 *
 * The hash family is deterministic: permutation `i` maps a gram hash `x` to `mix32(x ^ seed_i)` with
 * `seed_i = mix32(seed + i · 0x9E3779B9)`. The same parameters give the same band keys on every run and
 * machine, which is what lets band keys be persisted and an index be reloaded without re-hashing.
 */
export interface LshParameters {
  /** Number of bands `b`. Memory is about 6 bytes per value per band. Default 24. */
  readonly bands: number;
  /** Rows (min-hashes) per band `r`. The signature size is `b · r`. Default 2. */
  readonly rows: number;
  /** Seed of the hash family. Default 1. */
  readonly seed: number;
}

/**
 * Defaults: 24 bands of 2 rows (signature size 48).
 *
 * The S-curve P(candidate) = 1 − (1 − s^r)^b is 0.63 at Jaccard s = 0.2, 0.90 at 0.3, 0.98 at 0.4 and
 * 0.999 at s = 0.5: a keyword with one typo in a 10-letter value (s ≈ 0.4–0.6) or a keyword that
 * contains the value ("alameda county" ⊃ "alameda", s = 0.5) is found with near certainty.
 * CHESS queries datasketch with threshold 0.01, i.e. r = 1 ("any shared min-hash"), which surfaces even
 * s = 0.1 but makes buckets huge: measured on 1M Spider + generated values, r = 1 (b = 24) scans a median
 * of 130,000 postings per keyword, r = 2 only 7,500, for the same recall of the brute-force best match
 * (0.98 on 120 typo'd keywords) — the final ranking is by exact Jaccard and edit distance anyway.
 * b = 32 raised that recall to 0.99 for 30% more memory; b = 16 kept 0.98 but lowers P(0.3) to 0.78.
 * Figures: packages/eval/src/value-index/RESULTS.md.
 */
export const DEFAULT_LSH_PARAMETERS: LshParameters = { bands: 24, rows: 2, seed: 1 };

/** Probability that two sets of Jaccard similarity `similarity` share at least one band. */
export function candidateProbability(similarity: number, parameters: LshParameters): number {
  return 1 - (1 - similarity ** parameters.rows) ** parameters.bands;
}

/** The S-curve at a few similarities, for docs and the benchmark report. */
export function describeSCurve(parameters: LshParameters): string {
  return [0.05, 0.1, 0.2, 0.3, 0.5]
    .map((similarity) => `P(${similarity})=${candidateProbability(similarity, parameters).toFixed(3)}`)
    .join(" ");
}

/** A stable text form of the parameters, stored with persisted band keys to detect stale ones. */
export function lshParametersKey(parameters: LshParameters): string {
  return `minhash3-b${parameters.bands}-r${parameters.rows}-s${parameters.seed}`;
}

const seedCache = new Map<string, Uint32Array>();
function permutationSeeds(parameters: LshParameters): Uint32Array {
  const key = lshParametersKey(parameters);
  let seeds = seedCache.get(key);
  if (!seeds) {
    seeds = new Uint32Array(parameters.bands * parameters.rows);
    for (let index = 0; index < seeds.length; index++) {
      seeds[index] = mix32(parameters.seed + Math.imul(index + 1, 0x9e3779b9));
    }
    seedCache.set(key, seeds);
  }
  return seeds;
}

/**
 * Writes the `b` band keys of one gram set (its first `gramCount` hashes; order and duplicates do not matter) into
 * `target` at `offset`. A value without grams gets band keys of 0 (it can only be found by an empty keyword, which is
 * never searched).
 */
export function writeBandKeys(
  grams: Uint32Array,
  parameters: LshParameters,
  target: Uint32Array,
  offset: number,
  gramCount = grams.length,
): void {
  const seeds = permutationSeeds(parameters);
  const { bands, rows } = parameters;
  for (let band = 0; band < bands; band++) {
    let bandKey = 0;
    for (let row = 0; row < rows; row++) {
      const seed = seeds[band * rows + row]!;
      let minimum = 0xffffffff;
      for (let gram = 0; gram < gramCount; gram++) {
        const permuted = mix32(grams[gram]! ^ seed);
        if (permuted < minimum) minimum = permuted;
      }
      if (gramCount === 0) minimum = 0;
      bandKey = rows === 1 ? minimum : mix32(Math.imul(bandKey, 0x01000193) ^ minimum);
    }
    target[offset + band] = bandKey;
  }
}

/** The band keys of one gram set. */
export function bandKeys(grams: Uint32Array, parameters: LshParameters): Uint32Array {
  const keys = new Uint32Array(parameters.bands);
  writeBandKeys(grams, parameters, keys, 0);
  return keys;
}
