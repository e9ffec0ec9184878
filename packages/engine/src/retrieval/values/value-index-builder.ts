import { type ColumnSegment, hashColumnSegment } from "./column-segment";
import { GrowableBytes, GrowableUint32Array } from "./growable-arrays";
import { DEFAULT_LSH_PARAMETERS, type LshParameters, lshParametersKey } from "./min-hash";
import { columnKey, type ValueColumn } from "./value-column";
import { ValueIndex } from "./value-index";
import { ValueIndexError } from "./value-index-error";

/**
 * Collects column segments into the compact buffers a `ValueIndex` is made of: all value texts in one
 * UTF-8 buffer with offsets, band keys in one `Uint32Array`, columns as contiguous entry ranges.
 * Values are not kept as JS strings, so building 10M values does not hold 10M strings at once.
 */
export class ValueIndexBuilder {
  readonly parameters: LshParameters;
  readonly #text = new GrowableBytes();
  readonly #textOffsets = new GrowableUint32Array();
  readonly #bandKeys = new GrowableUint32Array();
  readonly #columns: ValueColumn[] = [];
  readonly #columnStarts: number[] = [0];
  readonly #columnKeys = new Set<string>();

  /** @param parameters LSH parameters; default `DEFAULT_LSH_PARAMETERS` (24 bands × 2 rows). */
  constructor(parameters: LshParameters = DEFAULT_LSH_PARAMETERS) {
    if (parameters.bands < 1 || parameters.bands > 255 || parameters.rows < 1) {
      throw new ValueIndexError(`invalid LSH parameters: ${lshParametersKey(parameters)} (1 ≤ bands ≤ 255, rows ≥ 1)`);
    }
    this.parameters = parameters;
    this.#textOffsets.push(0);
  }

  /** Number of values added so far. */
  get size(): number {
    return this.#textOffsets.length - 1;
  }

  /** Hashes and adds the values of one column. Returns the segment (for persistence). */
  addColumn(column: ValueColumn, values: Iterable<string>): ColumnSegment {
    const segment = hashColumnSegment(column, values, this.parameters);
    this.addSegment(segment);
    return segment;
  }

  /** Adds a segment whose band keys were computed before (e.g. loaded from the metadata store). */
  addSegment(segment: ColumnSegment): void {
    const key = columnKey(segment.column);
    if (this.#columnKeys.has(key)) throw new ValueIndexError(`column ${key} was added twice`);
    if (segment.parametersKey !== lshParametersKey(this.parameters)) {
      throw new ValueIndexError(
        `segment of ${key} was hashed with ${segment.parametersKey}, the index uses ${lshParametersKey(this.parameters)}`,
      );
    }
    if (segment.bandKeys.length !== segment.values.length * this.parameters.bands) {
      throw new ValueIndexError(
        `segment of ${key} has ${segment.bandKeys.length} band keys for ${segment.values.length} values`,
      );
    }
    this.#columnKeys.add(key);
    for (const value of segment.values) {
      this.#text.appendText(value);
      if (this.#text.length > 0xffffffff)
        throw new ValueIndexError("the value index holds at most 4 GiB of value text");
      this.#textOffsets.push(this.#text.length);
    }
    const { array, offset } = this.#bandKeys.reserve(segment.bandKeys.length);
    array.set(segment.bandKeys, offset);
    this.#columns.push(segment.column);
    this.#columnStarts.push(this.size);
  }

  /** Builds the immutable, queryable index. The builder should not be used afterwards. */
  build(): ValueIndex {
    return new ValueIndex({
      parameters: this.parameters,
      text: this.#text.toArray(),
      textOffsets: this.#textOffsets.toArray(),
      bandKeys: this.#bandKeys.view(),
      columns: [...this.#columns],
      columnStarts: Uint32Array.from(this.#columnStarts),
    });
  }
}
