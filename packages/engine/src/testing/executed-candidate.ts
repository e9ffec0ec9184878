import type { CappedResult } from "../database/read-only-session";
import type { ExecutedCandidate } from "../selection/candidate-selector";

/** int4 */
const defaultColumnType = 23;

/**
 * Test helper: a capped result with columns `c0…` of the given type OIDs (default: one int4 column per value of the
 * first row, or one int4 column when there are no rows) and `rows` in text format.
 */
export function cappedResult(
  rows: ReadonlyArray<ReadonlyArray<string | null>>,
  options: { readonly columnTypes?: readonly number[]; readonly truncated?: boolean } = {},
): CappedResult {
  const columnTypes = options.columnTypes ?? Array.from({ length: rows[0]?.length ?? 1 }, () => defaultColumnType);
  return {
    result: {
      fields: columnTypes.map((dataTypeId, position) => ({
        name: `c${position}`,
        dataTypeId,
        dataTypeSize: -1,
        dataTypeModifier: -1,
        tableId: 0,
        columnId: 0,
      })),
      rows,
      command: `SELECT ${rows.length}`,
    },
    truncated: options.truncated ?? false,
    ...(options.truncated ? { truncatedBy: "rows" as const } : {}),
  };
}

/** Test helper: an executed candidate number `index` (generator `test`) with its SQL and result rows. */
export function executedCandidate(
  index: number,
  sql: string,
  rows: ReadonlyArray<ReadonlyArray<string | null>>,
  options: { readonly columnTypes?: readonly number[]; readonly truncated?: boolean; readonly generator?: string } = {},
): ExecutedCandidate {
  return { index, generator: options.generator ?? "test", sql, result: cappedResult(rows, options) };
}
