import type { ColumnSegment } from "@nlq/engine";
import {
  columnKey,
  DEFAULT_LSH_PARAMETERS,
  hashColumnSegment,
  introspectCatalog,
  liveLookupColumns,
  runReadOnly,
  selectColumnValues,
  valueReadPolicy,
} from "@nlq/engine";
import type { BackgroundConnection, BackgroundValueIndexLimits } from "./background-limits";
import { fetchDistinctValues } from "./index-database-values";

/** What a background build read: the columns' hashed values, and the columns it does not hold whole. */
export interface BackgroundSegments {
  readonly segments: ColumnSegment[];
  /** `columnKey`s truncated at `valuesPerColumn`, or left out by a timeout, the total cap or the budget. */
  readonly incompleteColumns: Set<string>;
}

/**
 * Reads the values of a database nothing is indexed for, on a connection of its own as the asking role (`connect`),
 * within `limits` (see `BackgroundValueIndexes`): one column at a time, each under `columnTimeoutMilliseconds`; a
 * slow or unreadable column is left out and the others count. The connection is closed at the end.
 */
export async function readBackgroundSegments(
  connect: () => Promise<BackgroundConnection>,
  limits: Required<BackgroundValueIndexLimits>,
  now: () => number = Date.now,
  abortSignal?: AbortSignal,
): Promise<BackgroundSegments> {
  const started = now();
  const connection = await connect();
  try {
    const scope = { session: connection.executor, statementTimeoutMilliseconds: 30_000 };
    const { catalog, policy } = await runReadOnly(scope, async (query) => ({
      catalog: await introspectCatalog(query),
      policy: await valueReadPolicy(query),
    }));
    const segments: ColumnSegment[] = [];
    const incompleteColumns = new Set<string>();
    let size = 0;
    for (const table of catalog.tables) {
      for (const column of liveLookupColumns(table)) {
        abortSignal?.throwIfAborted();
        if (now() - started > limits.budgetMilliseconds || size >= limits.totalValues) {
          incompleteColumns.add(columnKey(column));
          continue;
        }
        const dataType = table.columns.find((candidate) => candidate.name === column.column)?.dataType ?? "text";
        let sample: string[];
        try {
          sample = await runReadOnly(
            { session: connection.executor, statementTimeoutMilliseconds: limits.columnTimeoutMilliseconds },
            (query) =>
              fetchDistinctValues(
                { name: "background-value-index", query: ({ sql }) => query(sql) },
                column,
                Math.min(limits.valuesPerColumn, limits.totalValues - size) + 1,
                undefined,
                policy,
              ),
          );
        } catch {
          incompleteColumns.add(columnKey(column)); // A slow or unreadable column is left out; the others count.
          continue;
        }
        const selection = selectColumnValues({ name: column.column, dataType }, sample, {
          maxValuesPerColumn: Math.min(limits.valuesPerColumn, limits.totalValues - size),
        });
        if (selection.keep) {
          const segment = hashColumnSegment(column, selection.values, DEFAULT_LSH_PARAMETERS);
          segments.push(segment);
          size += segment.values.length;
        }
        if (selection.keep && selection.truncated) incompleteColumns.add(columnKey(column));
        // Yield between columns, so a large build never holds the event loop.
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    return { segments, incompleteColumns };
  } finally {
    await connection.close().catch(() => undefined);
  }
}
