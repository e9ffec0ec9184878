import { bandKeys as computeBandKeys, type LshParameters } from "./min-hash";
import { normalizeValue } from "./normalize-value";
import { gramHashes, jaccard } from "./shingles";
import type { KeywordCandidates, ValueCandidate } from "./value-candidate";
import { type ReadableColumns, readablePredicate, type ValueColumn } from "./value-column";
import type { KeywordSearchOptions, ValueSearch } from "./value-search";

export type { ValueCandidate } from "./value-candidate";

export interface ValueSearchOptions {
  readonly keyword: string;
  /** Columns the asking role may read; values of any other column are never returned. */
  readonly readableColumns: ReadableColumns;
  /** How many candidates to return, best Jaccard first. Default 10 (CHESS's top 10). */
  readonly limit?: number;
  /**
   * How many values, by number of colliding bands, get their exact Jaccard computed. Default 200.
   * Larger is more exact and slower.
   */
  readonly poolSize?: number;
}

interface ValueIndexData {
  readonly parameters: LshParameters;
  readonly text: Uint8Array;
  readonly textOffsets: Uint32Array;
  readonly bandKeys: Uint32Array;
  readonly columns: readonly ValueColumn[];
  readonly columnStarts: Uint32Array;
}

/** One band's postings, bucketed by the top `directoryBits` bits of the band key (a counting sort). */
interface BandTable {
  /** `directory[bucket] .. directory[bucket + 1]` is the bucket's range in `entries` / `fingerprints`. */
  readonly directory: Uint32Array;
  readonly entries: Uint32Array;
  /** Low 16 bits of each posting's band key, checked before counting a collision. */
  readonly fingerprints: Uint16Array;
}

const decoder = new TextDecoder();

/**
 * An immutable MinHash-LSH index over the values of many columns (CHESS retrieve_entity, first stage).
 * Memory: the UTF-8 text, 4 bytes of offset per value and 6 bytes per value per band (entry id and a
 * 16-bit fingerprint), plus a small directory per band. Build it with `ValueIndexBuilder`.
 * Searches are synchronous and share one scratch buffer, so one index serves one search at a time
 * (JavaScript's event loop guarantees that).
 */
export class ValueIndex implements ValueSearch {
  readonly parameters: LshParameters;
  readonly columns: readonly ValueColumn[];
  readonly #text: Uint8Array;
  readonly #textOffsets: Uint32Array;
  readonly #columnStarts: Uint32Array;
  readonly #bands: BandTable[] = [];
  readonly #directoryShift: number;
  readonly #collisions: Uint8Array;
  #touched = new Uint32Array(1024);

  constructor(data: ValueIndexData) {
    this.parameters = data.parameters;
    this.columns = data.columns;
    this.#text = data.text;
    this.#textOffsets = data.textOffsets;
    this.#columnStarts = data.columnStarts;
    const size = this.size;
    const directoryBits = Math.min(20, Math.max(4, Math.ceil(Math.log2(Math.max(size, 1))) - 2));
    this.#directoryShift = 32 - directoryBits;
    const bands = data.parameters.bands;
    for (let band = 0; band < bands; band++) {
      const directory = new Uint32Array((1 << directoryBits) + 1);
      for (let entry = 0; entry < size; entry++)
        directory[(data.bandKeys[entry * bands + band]! >>> this.#directoryShift) + 1]!++;
      for (let bucket = 1; bucket < directory.length; bucket++) directory[bucket]! += directory[bucket - 1]!;
      const fill = directory.slice(0, directory.length - 1);
      const entries = new Uint32Array(size);
      const fingerprints = new Uint16Array(size);
      for (let entry = 0; entry < size; entry++) {
        const key = data.bandKeys[entry * bands + band]!;
        const position = fill[key >>> this.#directoryShift]!++;
        entries[position] = entry;
        fingerprints[position] = key & 0xffff;
      }
      this.#bands.push({ directory, entries, fingerprints });
    }
    this.#collisions = new Uint8Array(size);
  }

  /** Number of indexed values (a value present in two columns counts twice). */
  get size(): number {
    return this.#textOffsets.length - 1;
  }

  /** Bytes held in typed arrays (text, offsets, band tables, scratch). */
  get byteSize(): number {
    let bytes = this.#text.byteLength + this.#textOffsets.byteLength + this.#columnStarts.byteLength;
    for (const band of this.#bands)
      bytes += band.directory.byteLength + band.entries.byteLength + band.fingerprints.byteLength;
    return bytes + this.#collisions.byteLength + this.#touched.byteLength;
  }

  /** The text of entry `entry`. */
  valueAt(entry: number): string {
    return decoder.decode(this.#text.subarray(this.#textOffsets[entry]!, this.#textOffsets[entry + 1]!));
  }

  /** The column index (into `columns`) of entry `entry`. */
  columnIndexOf(entry: number): number {
    let low = 0;
    let high = this.columns.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if (this.#columnStarts[middle]! <= entry) low = middle;
      else high = middle - 1;
    }
    return low;
  }

  /** `search` for each keyword (the `ValueSearch` of an index held in this process). */
  async searchKeywords(options: KeywordSearchOptions): Promise<KeywordCandidates[]> {
    return options.keywords.map((keyword) => ({
      keyword,
      candidates: this.search({
        keyword,
        readableColumns: options.readableColumns,
        ...(options.limit === undefined ? {} : { limit: options.limit }),
        ...(options.poolSize === undefined ? {} : { poolSize: options.poolSize }),
      }),
    }));
  }

  /** LSH candidates → exact Jaccard → the best `limit`, only from readable columns. */
  search(options: ValueSearchOptions): ValueCandidate[] {
    const limit = options.limit ?? 10;
    const poolSize = Math.max(limit, options.poolSize ?? 200);
    const queryGrams = gramHashes(normalizeValue(options.keyword));
    if (queryGrams.length === 0 || this.size === 0) return [];
    const keys = computeBandKeys(queryGrams, this.parameters);
    const collisions = this.#collisions;
    let touchedCount = 0;
    for (let band = 0; band < this.#bands.length; band++) {
      const { directory, entries, fingerprints } = this.#bands[band]!;
      const key = keys[band]!;
      const bucket = key >>> this.#directoryShift;
      const fingerprint = key & 0xffff;
      const end = directory[bucket + 1]!;
      for (let position = directory[bucket]!; position < end; position++) {
        if (fingerprints[position] !== fingerprint) continue;
        const entry = entries[position]!;
        if (collisions[entry] === 0) {
          if (touchedCount === this.#touched.length) {
            const grown = new Uint32Array(this.#touched.length * 2);
            grown.set(this.#touched);
            this.#touched = grown;
          }
          this.#touched[touchedCount++] = entry;
        }
        collisions[entry]!++;
      }
    }
    const touched = this.#touched.subarray(0, touchedCount);
    // Group the touched values by collision count (counting sort, most collisions first).
    const bandsCount = this.#bands.length;
    const histogram = new Uint32Array(bandsCount + 2);
    for (const entry of touched) histogram[collisions[entry]!]!++;
    const starts = new Uint32Array(bandsCount + 2);
    for (let count = bandsCount - 1; count >= 0; count--) starts[count] = starts[count + 1]! + histogram[count + 1]!;
    const ordered = new Uint32Array(touchedCount);
    for (const entry of touched) ordered[starts[collisions[entry]!]!++] = entry;
    for (const entry of touched) collisions[entry] = 0;

    const isReadable = readablePredicate(options.readableColumns);
    const readableByColumn = new Int8Array(this.columns.length);
    const scored: Array<{ entry: number; column: number; jaccard: number }> = [];
    for (let position = 0; position < ordered.length && scored.length < poolSize; position++) {
      const entry = ordered[position]!;
      const column = this.columnIndexOf(entry);
      if (readableByColumn[column] === 0) readableByColumn[column] = isReadable(this.columns[column]!) ? 1 : -1;
      if (readableByColumn[column] !== 1) continue;
      scored.push({ entry, column, jaccard: jaccard(queryGrams, gramHashes(normalizeValue(this.valueAt(entry)))) });
    }
    scored.sort((left, right) => right.jaccard - left.jaccard || left.entry - right.entry);
    return scored.slice(0, limit).map(({ entry, column, jaccard: similarity }) => ({
      column: this.columns[column]!,
      value: this.valueAt(entry),
      jaccard: similarity,
    }));
  }
}
