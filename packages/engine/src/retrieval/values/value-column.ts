import { alwaysQuoteIdentifier } from "../../sql/quote-identifier";

/** A column whose values are indexed: the privilege unit of the value index. */
export interface ValueColumn {
  readonly schema: string;
  readonly table: string;
  readonly column: string;
}

/** A unique, unambiguous key of a column: its quoted qualified name, e.g. `"public"."schools"."County"`. */
export function columnKey(column: ValueColumn): string {
  return `${alwaysQuoteIdentifier(column.schema)}.${alwaysQuoteIdentifier(column.table)}.${alwaysQuoteIdentifier(column.column)}`;
}

/**
 * Which columns the asking role may read: a set of `columnKey`s, a predicate, or `"all"` (only for
 * trusted callers such as benchmarks and the indexer). The index never returns a value of any other column.
 */
export type ReadableColumns = ReadonlySet<string> | ((column: ValueColumn) => boolean) | "all";

/** Turns `ReadableColumns` into a predicate. */
export function readablePredicate(readable: ReadableColumns): (column: ValueColumn) => boolean {
  if (readable === "all") return () => true;
  if (typeof readable === "function") return readable;
  return (column) => readable.has(columnKey(column));
}
