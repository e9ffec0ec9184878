import type { Catalog } from "../catalog/catalog-types";
import { columnKey } from "../retrieval/values/value-column";
import { type ValueProbe, valueProbeKey } from "../retrieval/values/value-visibility-statement";
import type { ValueVisibility } from "../retrieval/values/visible-values";
import { sampleValueProbe } from "../schema/visible-sample-values";

/** Column key (`columnKey`) → the examples `nlq index` stored for it (read by the indexing role, unchecked). */
export type StoredSampleValues = ReadonlyMap<string, readonly string[]>;

/** The stored examples of every column of a catalog that has some, by `columnKey`. Pure. */
export function storedSampleValuesOf(catalog: Catalog): Map<string, readonly string[]> {
  const stored = new Map<string, readonly string[]>();
  for (const table of catalog.tables)
    for (const column of table.columns)
      if (column.sampleValues && column.sampleValues.length > 0)
        stored.set(columnKey({ schema: table.schema, table: table.name, column: column.name }), column.sampleValues);
  return stored;
}

export interface AddVisibleSamplesOptions {
  /** The catalog about to be shown; its own `sampleValues` (e.g. retrieved values) come first and are kept. */
  readonly catalog: Catalog;
  readonly stored: StoredSampleValues;
  /** Checks the stored examples under the asking role (RLS and privileges). */
  readonly visibility: ValueVisibility;
  /** Examples per column. */
  readonly valuesPerColumn: number;
  /** Stored examples are checked for this many tables of `catalog` at most (one statement each). */
  readonly maxTables: number;
  readonly abortSignal?: AbortSignal;
}

/**
 * Adds to each column the stored examples the asking role can see in a row, after the values it already shows:
 * only for the tables about to reach a prompt, so the check costs one statement per shown table (at most
 * `maxTables`). A stored example the role cannot see is dropped silently.
 */
export async function addVisibleStoredSamples(options: AddVisibleSamplesOptions): Promise<Catalog> {
  const probesByColumn = new Map<string, Array<{ shown: string; probe: ValueProbe }>>();
  let checkedTables = 0;
  for (const table of options.catalog.tables) {
    if (checkedTables >= options.maxTables) break;
    let hasStored = false;
    for (const column of table.columns) {
      const key = columnKey({ schema: table.schema, table: table.name, column: column.name });
      const stored = options.stored.get(key) ?? [];
      if (stored.length === 0) continue;
      hasStored = true;
      probesByColumn.set(
        key,
        stored.map((shown) => ({ shown, probe: sampleValueProbe(table, column, shown) })),
      );
    }
    if (hasStored) checkedTables += 1;
  }
  if (probesByColumn.size === 0) return options.catalog;
  const visible = await options.visibility(
    [...probesByColumn.values()].flat().map(({ probe }) => probe),
    {
      abortSignal: options.abortSignal,
    },
  );
  return {
    ...options.catalog,
    tables: options.catalog.tables.map((table) => ({
      ...table,
      columns: table.columns.map((column) => {
        const entries = probesByColumn.get(columnKey({ schema: table.schema, table: table.name, column: column.name }));
        const shown = (entries ?? [])
          .filter(({ probe }) => visible.has(valueProbeKey(probe)))
          .map(({ shown }) => shown);
        if (shown.length === 0) return column;
        const current = column.sampleValues ?? [];
        const merged = [...current, ...shown.filter((value) => !current.includes(value))];
        return { ...column, sampleValues: merged.slice(0, Math.max(options.valuesPerColumn, current.length)) };
      }),
    })),
  };
}
