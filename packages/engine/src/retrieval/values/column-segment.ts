import { type LshParameters, lshParametersKey, writeBandKeys } from "./min-hash";
import { normalizeValue } from "./normalize-value";
import { gramHashes } from "./shingles";
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

/** Hashes the values of one column (duplicates after normalization are kept once). */
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
  for (let index = 0; index < kept.length; index++) {
    writeBandKeys(gramHashes(normalizeValue(kept[index]!)), parameters, bandKeys, index * parameters.bands);
  }
  return { column, values: kept, bandKeys, parametersKey: lshParametersKey(parameters) };
}
