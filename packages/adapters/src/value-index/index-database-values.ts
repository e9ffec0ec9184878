import type { FunctionPolicy, QueryExecutor, ValueColumn } from "@nlq/engine";
import {
  alwaysQuoteIdentifier,
  type ColumnForSelection,
  type ColumnSegment,
  columnSkipReason,
  DEFAULT_LSH_PARAMETERS,
  DEFAULT_VALUE_SELECTION_OPTIONS,
  hashColumnSegment,
  type LshParameters,
  mayReadValues,
  selectColumnValues,
  type ValueSelectionOptions,
  valueReadPolicy,
} from "@nlq/engine";
import type { ValueIndexStore } from "./value-index-store";

/** A column of the target database as the catalog describes it. */
export interface DatabaseColumn extends ValueColumn, Omit<ColumnForSelection, "name"> {}

/** What happened to one column. */
export type ColumnIndexOutcome =
  | {
      readonly column: ValueColumn;
      readonly indexed: true;
      readonly segment: ColumnSegment;
      readonly truncated: boolean;
    }
  | { readonly column: ValueColumn; readonly indexed: false; readonly reason: string };

export interface IndexDatabaseValuesOptions {
  /** Session on the target database; it needs SELECT on the columns (an indexing role, not the asking user). */
  readonly executor: QueryExecutor;
  /** The columns to (re)index; others stored for the data source are left untouched (incremental). */
  readonly columns: readonly DatabaseColumn[];
  /** LSH parameters. Default `DEFAULT_LSH_PARAMETERS`. */
  readonly parameters?: LshParameters;
  /** Value selection thresholds. Default `DEFAULT_VALUE_SELECTION_OPTIONS`. */
  readonly selection?: ValueSelectionOptions;
  /** When given with `dataSourceId`, every outcome is saved as soon as it is known. */
  readonly store?: ValueIndexStore;
  readonly dataSourceId?: string;
  /** Called after each column (progress reporting). */
  readonly onColumn?: (outcome: ColumnIndexOutcome) => void;
  readonly abortSignal?: AbortSignal;
  /** The policy deciding which tables are safe to read (`mayReadValues`). Default: the session's (`valueReadPolicy`). */
  readonly policy?: FunctionPolicy;
}

/** Why a column is not indexed when reading its table runs code the function policy refuses. */
export const UNSAFE_TABLE_REASON = "reading the table runs code the function policy refuses";

/**
 * `SELECT DISTINCT col::text FROM schema.table WHERE col IS NOT NULL LIMIT n`: the column's distinct values, capped;
 * none when reading the table runs code the function policy refuses (`mayReadValues` with `policy`, default the
 * session's: a row-level security policy or a column type's cast another role planted). Run it in a read-only scope.
 */
export async function fetchDistinctValues(
  executor: QueryExecutor,
  column: ValueColumn,
  limit: number,
  abortSignal?: AbortSignal,
  policy?: FunctionPolicy,
): Promise<string[]> {
  const judged = await valueReadPolicy((sql) => executor.query({ sql, abortSignal }), policy);
  if (!mayReadValues(judged, column)) return [];
  const name = alwaysQuoteIdentifier(column.column);
  const result = await executor.query({
    sql: `SELECT DISTINCT ${name}::text FROM ${alwaysQuoteIdentifier(column.schema)}.${alwaysQuoteIdentifier(column.table)} WHERE ${name} IS NOT NULL LIMIT ${Math.max(0, Math.floor(limit))}`,
    abortSignal,
  });
  return result.rows.map((row) => row[0] ?? "").filter((value) => value.length > 0);
}

/**
 * Builds the value index of a live database column by column: metadata-only skips first (no query; a table whose
 * reading runs code the function policy refuses is skipped too, `UNSAFE_TABLE_REASON`),
 * then distinct values (capped at `maxValuesPerColumn` + 1 to detect truncation), value selection, hashing.
 * Returns every outcome; with a store, each is persisted (skips too, so the next run knows why).
 */
export async function indexDatabaseValues(options: IndexDatabaseValuesOptions): Promise<ColumnIndexOutcome[]> {
  const parameters = options.parameters ?? DEFAULT_LSH_PARAMETERS;
  const selectionOptions = { ...DEFAULT_VALUE_SELECTION_OPTIONS, ...options.selection };
  const outcomes: ColumnIndexOutcome[] = [];
  const policy =
    options.columns.length === 0
      ? undefined
      : await valueReadPolicy(
          (sql) => options.executor.query({ sql, abortSignal: options.abortSignal }),
          options.policy,
        );
  for (const databaseColumn of options.columns) {
    options.abortSignal?.throwIfAborted();
    const column: ValueColumn = {
      schema: databaseColumn.schema,
      table: databaseColumn.table,
      column: databaseColumn.column,
    };
    const forSelection: ColumnForSelection = { ...databaseColumn, name: databaseColumn.column };
    let outcome: ColumnIndexOutcome;
    const metadataReason =
      columnSkipReason(forSelection) ??
      (policy === undefined || mayReadValues(policy, column) ? undefined : UNSAFE_TABLE_REASON);
    if (metadataReason !== undefined) outcome = { column, indexed: false, reason: metadataReason };
    else {
      const sample = await fetchDistinctValues(
        options.executor,
        column,
        selectionOptions.maxValuesPerColumn + 1,
        options.abortSignal,
        policy,
      );
      const selection = selectColumnValues(forSelection, sample, selectionOptions);
      outcome = selection.keep
        ? {
            column,
            indexed: true,
            segment: hashColumnSegment(column, selection.values, parameters),
            truncated: selection.truncated,
          }
        : { column, indexed: false, reason: selection.reason };
    }
    if (options.store && options.dataSourceId !== undefined) {
      if (outcome.indexed)
        await options.store.saveColumn(options.dataSourceId, outcome.segment, { truncated: outcome.truncated });
      else await options.store.saveSkippedColumn(options.dataSourceId, column, outcome.reason, parameters);
    }
    options.onColumn?.(outcome);
    outcomes.push(outcome);
  }
  return outcomes;
}
