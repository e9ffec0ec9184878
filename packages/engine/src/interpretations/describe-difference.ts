import { type QueryShape, queryShape } from "./query-shape";

/** What the difference line compares of one interpretation: its SQL and what it returned. */
export interface ComparedReading {
  readonly sql: string;
  readonly columns: readonly string[];
  /** The first rows (the same number for both sides, e.g. the interpretations' preview). */
  readonly rows: ReadonlyArray<ReadonlyArray<string | null>>;
  /** Rows it returned in all (capped by the row limit). */
  readonly rowCount: number;
  /** True when a cap cut its rows (`rowCount` is then a lower bound). */
  readonly truncated: boolean;
}

const maxLineLength = 240;
const maxValueLength = 30;

function only<T>(items: readonly T[], others: readonly T[]): T[] {
  return items.filter((item) => !others.includes(item));
}

function list(items: readonly string[]): string {
  return items.join(", ");
}

/** `reads X instead of Y`, `also reads X`, `does not read Y` (`added` are the other's, `removed` the chosen's). */
function changed(
  added: readonly string[],
  removed: readonly string[],
  phrases: { both: string; added: string; removed: string },
): string | undefined {
  if (added.length > 0 && removed.length > 0) return `${phrases.both} ${list(added)} instead of ${list(removed)}`;
  if (added.length > 0) return `${phrases.added} ${list(added)}`;
  if (removed.length > 0) return `${phrases.removed} ${list(removed)}`;
  return undefined;
}

function setDifference(
  other: readonly string[],
  chosen: readonly string[],
  phrases: { both: string; added: string; removed: string },
): string | undefined {
  return changed(only(other, chosen), only(chosen, other), phrases);
}

function sameList(left: readonly string[], right: readonly string[]): boolean {
  return left.length === right.length && left.every((item, index) => item === right[index]);
}

/** The clauses in which `other` differs from `chosen`, as short phrases, in clause order. */
function shapeDifferences(other: QueryShape, chosen: QueryShape): string[] {
  const parts: Array<string | undefined> = [];
  if (other.setOperation !== chosen.setOperation) {
    parts.push(other.setOperation ? `combines selects with ${other.setOperation}` : "one select, not a set operation");
  }
  parts.push(
    setDifference(other.tables, chosen.tables, { both: "reads", added: "also reads", removed: "does not read" }),
  );
  if (!sameList(other.outputs, chosen.outputs)) {
    const added = only(other.outputs, chosen.outputs);
    const removed = only(chosen.outputs, other.outputs);
    parts.push(
      added.length === 0 && removed.length === 0
        ? `returns the columns in another order (${list(other.outputs)})`
        : changed(added, removed, { both: "returns", added: "also returns", removed: "does not return" }),
    );
  }
  parts.push(
    setDifference(other.filters, chosen.filters, {
      both: "filters on",
      added: "adds the filter",
      removed: "drops the filter",
    }),
  );
  parts.push(
    setDifference(other.having, chosen.having, {
      both: "keeps groups where",
      added: "keeps only groups where",
      removed: "drops the group condition",
    }),
  );
  if (!sameList(other.grouping, chosen.grouping)) {
    parts.push(
      other.grouping.length === 0
        ? "does not group"
        : chosen.grouping.length === 0
          ? `groups by ${list(other.grouping)}`
          : `groups by ${list(other.grouping)} instead of ${list(chosen.grouping)}`,
    );
  }
  if (!sameList(other.ordering, chosen.ordering)) {
    parts.push(
      other.ordering.length === 0
        ? "no ORDER BY"
        : chosen.ordering.length === 0
          ? `orders by ${list(other.ordering)}`
          : `orders by ${list(other.ordering)} instead of ${list(chosen.ordering)}`,
    );
  }
  if (other.limit !== chosen.limit) {
    parts.push(
      other.limit === undefined
        ? `no LIMIT (instead of ${chosen.limit})`
        : `LIMIT ${other.limit}${chosen.limit === undefined ? "" : ` instead of ${chosen.limit}`}`,
    );
  }
  if (other.distinct !== chosen.distinct) parts.push(other.distinct ? "uses DISTINCT" : "no DISTINCT");
  return parts.filter((part): part is string => part !== undefined);
}

function value(text: string | null): string {
  if (text === null) return "NULL";
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, " ");
  return flat.length > maxValueLength ? `${flat.slice(0, maxValueLength)}…` : flat;
}

function rowCount(reading: ComparedReading): string {
  const count = `${reading.rowCount}${reading.truncated ? "+" : ""}`;
  return `${count} ${reading.rowCount === 1 && !reading.truncated ? "row" : "rows"}`;
}

function rowKey(row: ReadonlyArray<string | null>): string {
  return JSON.stringify(row);
}

/** How the results differ: row count, column count, the first differing value, or only the order. */
export function resultDifference(other: ComparedReading, chosen: ComparedReading): string | undefined {
  if (other.rowCount !== chosen.rowCount || other.truncated !== chosen.truncated) {
    return `${rowCount(other)} instead of ${rowCount(chosen)}`;
  }
  if (other.columns.length !== chosen.columns.length) {
    return `${other.columns.length} columns instead of ${chosen.columns.length}`;
  }
  const shown = Math.min(other.rows.length, chosen.rows.length);
  const sortedKeys = (rows: ComparedReading["rows"]) => rows.slice(0, shown).map(rowKey).sort().join("\n");
  const reordered = sortedKeys(other.rows) === sortedKeys(chosen.rows);
  for (let row = 0; row < shown; row += 1) {
    const left = other.rows[row]!;
    const right = chosen.rows[row]!;
    for (let column = 0; column < left.length; column += 1) {
      if (left[column] === right[column]) continue;
      if (reordered) return "the same rows in another order";
      const where = shown === 1 ? "" : ` in row ${row + 1}`;
      const name = other.columns[column] ?? `column ${column + 1}`;
      return `${value(name)} is ${value(left[column] ?? null)} instead of ${value(right[column] ?? null)}${where}`;
    }
  }
  return undefined;
}

/**
 * One line saying how `other` differs from `chosen`, computed from both: the SQL's clauses (`queryShape`: tables,
 * select list, filters, grouping, ordering, limit, DISTINCT) and the results (row count, columns, the first differing
 * value among the rows shown). Never model-written. At most 240 characters.
 */
export function describeDifference(other: ComparedReading, chosen: ComparedReading): string {
  const otherShape = queryShape(other.sql);
  const chosenShape = queryShape(chosen.sql);
  const parts = otherShape && chosenShape ? shapeDifferences(otherShape, chosenShape) : [];
  const results = resultDifference(other, chosen);
  if (results) parts.push(results);
  const line = parts.length > 0 ? parts.join("; ") : "a different result beyond the rows shown";
  return line.length > maxLineLength ? `${line.slice(0, maxLineLength - 1)}…` : line;
}
