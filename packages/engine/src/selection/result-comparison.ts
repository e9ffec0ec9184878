/**
 * Execution-accuracy comparison of two query results (pure). Column names are ignored and column order matters (as
 * in BIRD and Spider); values are PostgreSQL's text format, NULL is null and equals NULL. Values of numeric columns
 * (integer, float, numeric, oid types) on both sides compare as numbers within `numericTolerance`; everything else
 * compares as text.
 */

/** What the comparison needs of a result: each column's type OID and the rows in text format. */
export interface ComparableResult {
  /** Type OID of each column (pg_type.oid), in column order. */
  readonly columnTypes: readonly number[];
  readonly rows: ReadonlyArray<ReadonlyArray<string | null>>;
}

/** Default tolerance of numeric equality: |a − b| ≤ 1e-6 · max(1, |a|, |b|). */
const defaultNumericTolerance = 1e-6;

/** int2, int4, int8, oid, float4, float8, numeric. */
const numericTypes = new Set([21, 23, 20, 26, 700, 701, 1700]);

type Cell =
  | { readonly kind: "null" }
  | { readonly kind: "number"; readonly value: number }
  | {
      readonly kind: "text";
      readonly value: string;
    };

function cellsOf(result: ComparableResult, numericColumns: readonly boolean[]): Cell[][] {
  return result.rows.map((row) =>
    numericColumns.map((numeric, index): Cell => {
      const value = row[index] ?? null;
      if (value === null) return { kind: "null" };
      return numeric ? { kind: "number", value: Number(value) } : { kind: "text", value };
    }),
  );
}

function compareCells(left: Cell, right: Cell): number {
  const rank = { null: 0, number: 1, text: 2 } as const;
  if (left.kind !== right.kind) return rank[left.kind] - rank[right.kind];
  if (left.kind === "number" && right.kind === "number") {
    if (Number.isNaN(left.value) || Number.isNaN(right.value))
      return Number(Number.isNaN(left.value)) - Number(Number.isNaN(right.value));
    return left.value - right.value;
  }
  if (left.kind === "text" && right.kind === "text")
    return left.value < right.value ? -1 : left.value > right.value ? 1 : 0;
  return 0;
}

function cellsEqual(left: Cell, right: Cell, tolerance: number): boolean {
  if (left.kind === "number" && right.kind === "number") {
    if (Number.isNaN(left.value) || Number.isNaN(right.value))
      return Number.isNaN(left.value) && Number.isNaN(right.value);
    if (left.value === right.value) return true; // also ±Infinity
    return Math.abs(left.value - right.value) <= tolerance * Math.max(1, Math.abs(left.value), Math.abs(right.value));
  }
  return compareCells(left, right) === 0;
}

const compareRows = (left: readonly Cell[], right: readonly Cell[]) => {
  for (let index = 0; index < left.length; index++) {
    const order = compareCells(left[index]!, right[index]!);
    if (order !== 0) return order;
  }
  return 0;
};

function rowsEqual(left: readonly Cell[], right: readonly Cell[], tolerance: number): boolean {
  return left.every((cell, index) => cellsEqual(cell, right[index]!, tolerance));
}

function listsEqual(left: Cell[][], right: Cell[][], tolerance: number): boolean {
  return left.length === right.length && left.every((row, index) => rowsEqual(row, right[index]!, tolerance));
}

/** Sorted rows with neighbours equal within the tolerance merged: the result as a set. */
function distinctSorted(rows: Cell[][], tolerance: number): Cell[][] {
  const sorted = [...rows].sort(compareRows);
  return sorted.filter((row, index) => index === 0 || !rowsEqual(row, sorted[index - 1]!, tolerance));
}

export interface ResultComparisonOptions {
  /** Compare rows in order (the gold orders at its top level). Default false: compare row multisets. */
  readonly ordered?: boolean;
  /** Relative tolerance of numeric equality. Default `defaultNumericTolerance` (1e-6). */
  readonly numericTolerance?: number;
}

/** The two figures of one comparison: execution accuracy (multiset or ordered) and BIRD-style set equality. */
export interface ResultComparison {
  /** Same rows with the same multiplicities (and the same order when `ordered`). */
  readonly equal: boolean;
  /** Same set of distinct rows, order ignored (BIRD's `set(predicted) == set(gold)`). */
  readonly setEqual: boolean;
}

/**
 * Compares a predicted result with a gold one. Different column counts never match. Multisets are compared by
 * sorting both sides and comparing row by row within the tolerance (values that differ by less than the tolerance but
 * sort between other values of the same column can in rare cases misalign; exact values never do).
 */
export function compareResults(
  gold: ComparableResult,
  predicted: ComparableResult,
  options: ResultComparisonOptions = {},
): ResultComparison {
  if (gold.columnTypes.length !== predicted.columnTypes.length) return { equal: false, setEqual: false };
  const tolerance = options.numericTolerance ?? defaultNumericTolerance;
  const numericColumns = gold.columnTypes.map(
    (type, index) => numericTypes.has(type) && numericTypes.has(predicted.columnTypes[index]!),
  );
  const goldCells = cellsOf(gold, numericColumns);
  const predictedCells = cellsOf(predicted, numericColumns);
  const setEqual = listsEqual(
    distinctSorted(goldCells, tolerance),
    distinctSorted(predictedCells, tolerance),
    tolerance,
  );
  const equal = options.ordered
    ? listsEqual(goldCells, predictedCells, tolerance)
    : listsEqual([...goldCells].sort(compareRows), [...predictedCells].sort(compareRows), tolerance);
  return { equal, setEqual };
}
