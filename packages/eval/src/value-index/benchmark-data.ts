import { generateColumnValues } from "./generate-values";
import type { ColumnValues } from "./spider-values";

/**
 * The columns of one benchmark level: real Spider warehouse values first (as many whole columns as fit),
 * then seeded generated names and places up to exactly `count` values.
 */
export function levelColumns(real: readonly ColumnValues[], count: number, seed: number): ColumnValues[] {
  const columns: ColumnValues[] = [];
  let total = 0;
  for (const column of real) {
    if (total + column.values.length > count) continue;
    columns.push(column);
    total += column.values.length;
  }
  for (const column of generateColumnValues(count - total, seed)) {
    columns.push(column);
    total += column.values.length;
  }
  return columns;
}

/** Number of real (Spider) values among the columns. */
export function realValueCount(columns: readonly ColumnValues[]): number {
  return columns
    .filter((column) => column.column.schema !== "generated")
    .reduce((sum, column) => sum + column.values.length, 0);
}
