import { isDeepStrictEqual } from "node:util";

/** Adds one violation per key whose value differs between two snapshots (`label: key before → after`). */
export function compareState(
  label: string,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  violations: string[],
): void {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  for (const key of keys) {
    if (!isDeepStrictEqual(before[key], after[key])) {
      violations.push(`${label}: ${key} changed from ${JSON.stringify(before[key])} to ${JSON.stringify(after[key])}`);
    }
  }
}

/** Total bytes of the text values of rows (what the answer carried). */
export function valueBytes(rows: ReadonlyArray<ReadonlyArray<unknown>>): number {
  let total = 0;
  for (const row of rows) {
    for (const value of row) if (value !== null && value !== undefined) total += Buffer.byteLength(String(value));
  }
  return total;
}
