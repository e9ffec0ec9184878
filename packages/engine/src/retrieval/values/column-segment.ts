import { type LshParameters, lshParametersKey, writeBandKeys } from "./min-hash";
import { normalizeValue } from "./normalize-value";
import { writeGramHashes } from "./shingles";
import type { ValueColumn } from "./value-column";

/**
 * The indexed values of one column with their band keys: the unit of persistence and of incremental
 * rebuilds. `bandKeys` holds `parameters.bands` keys per value, value after value.
 */
export interface ColumnSegment {
  readonly column: ValueColumn;
  readonly values: readonly string[];
  readonly bandKeys: Uint32Array;
  /** `lshParametersKey` of the parameters the band keys were computed with. */
  readonly parametersKey: string;
}

/** Hashes the values of one column (duplicates after normalization are kept once), reusing one gram buffer. */
export function hashColumnSegment(
  column: ValueColumn,
  values: Iterable<string>,
  parameters: LshParameters,
): ColumnSegment {
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const value of values) {
    if (seen.has(value)) continue;
    seen.add(value);
    kept.push(value);
  }
  const bandKeys = new Uint32Array(kept.length * parameters.bands);
  let grams = new Uint32Array(64); // reused: one value's gram hashes, unsorted (MinHash needs no order)
  for (let index = 0; index < kept.length; index++) {
    const normalized = normalizeValue(kept[index]!);
    if (normalized.length > grams.length) grams = new Uint32Array(normalized.length * 2);
    writeBandKeys(grams, parameters, bandKeys, index * parameters.bands, writeGramHashes(normalized, grams));
  }
  return { column, values: kept, bandKeys, parametersKey: lshParametersKey(parameters) };
}
