import { isNumericType, isTemporalType } from "./chart-plan";
import type { AnswerField } from "./chat-message";

/** How the user sorted the table: a column and a direction. */
export interface TableSort {
  readonly column: number;
  readonly direction: "ascending" | "descending";
}

/** The next sort after a click on a column's header: ascending, then descending, then as the query returned. */
export function nextSort(current: TableSort | undefined, column: number): TableSort | undefined {
  if (current?.column !== column) return { column, direction: "ascending" };
  return current.direction === "ascending" ? { column, direction: "descending" } : undefined;
}

const collator = new Intl.Collator("en", { numeric: true, sensitivity: "base" });

/**
 * The rows the table shows, in order: those holding `filter` (case-insensitive, in any column's text) sorted by the
 * column: numbers as numbers, dates and times in their text order (ISO), text by a natural collation; NULL always
 * last. Returns positions into `rows`, so the caller keeps the original values.
 */
export function visibleRows(
  fields: readonly AnswerField[],
  rows: ReadonlyArray<ReadonlyArray<string | null>>,
  options: { readonly sort?: TableSort | undefined; readonly filter?: string },
): number[] {
  const needle = options.filter?.trim().toLowerCase() ?? "";
  let positions = rows.map((_row, position) => position);
  if (needle !== "") {
    positions = positions.filter((position) =>
      (rows[position] ?? []).some((value) => value?.toLowerCase().includes(needle)),
    );
  }
  const sort = options.sort;
  const field = sort === undefined ? undefined : fields[sort.column];
  if (sort === undefined || field === undefined) return positions;
  const numeric = isNumericType(field.dataTypeId);
  const temporal = isTemporalType(field.dataTypeId);
  const sign = sort.direction === "ascending" ? 1 : -1;
  return positions.sort((first, second) => {
    const a = rows[first]?.[sort.column] ?? null;
    const b = rows[second]?.[sort.column] ?? null;
    if (a === null || b === null) return a === b ? first - second : a === null ? 1 : -1;
    let order: number;
    if (numeric) order = Number(a) - Number(b);
    else if (temporal) order = a < b ? -1 : a > b ? 1 : 0;
    else order = collator.compare(a, b);
    return order === 0 ? first - second : sign * order;
  });
}
