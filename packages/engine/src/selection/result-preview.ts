import type { CappedResult } from "../database/read-only-session";

/** Rows of a result shown to a selection model by default (CHASE-SQL shows results; a few rows keep prompts small). */
export const defaultPreviewRows = 5;

/** Longest cell shown, in characters. */
const maxCellLength = 80;

function cell(value: string | null): string {
  if (value === null) return "NULL";
  const flat = value.replace(/\s+/g, " ");
  return flat.length > maxCellLength ? `${flat.slice(0, maxCellLength)}…` : flat;
}

/**
 * A result as text for a prompt: a header of column names, up to `maxRows` rows with ` | ` between cells (NULL as
 * `NULL`, long cells cut), and a last line saying how many rows there were and whether a cap cut them.
 */
export function resultPreview(result: CappedResult, maxRows = defaultPreviewRows): string {
  const { fields, rows } = result.result;
  const lines = [fields.map((field) => field.name).join(" | ")];
  for (const row of rows.slice(0, maxRows)) lines.push(row.map(cell).join(" | "));
  const count = result.truncated
    ? `at least ${rows.length} rows (cut by the ${result.truncatedBy === "bytes" ? "byte" : "row"} limit)`
    : `${rows.length} ${rows.length === 1 ? "row" : "rows"}`;
  lines.push(rows.length > maxRows ? `(first ${maxRows} of ${count})` : `(${count})`);
  return lines.join("\n");
}
