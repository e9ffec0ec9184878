import type { Catalog, ColumnInfo, TableInfo } from "../catalog/catalog-types";
import { type ValueProbe, valueProbeKey } from "../retrieval/values/value-visibility-statement";

/** The mark `fetchSampleValues` appends to a shortened example. */
const shortenedMark = "…";

/**
 * The probe that proves one shown example of a column: the value itself, or for an example shortened with `…` any
 * row whose value starts with the shown part. Pure.
 */
export function sampleValueProbe(table: TableInfo, column: ColumnInfo, shown: string): ValueProbe {
  const base = { schema: table.schema, table: table.name, column: column.name };
  return shown.endsWith(shortenedMark) && shown.length > shortenedMark.length
    ? { ...base, value: shown.slice(0, -shortenedMark.length), match: "prefix" }
    : { ...base, value: shown };
}

/**
 * The probes of every example (`sampleValues`) of the first `maxTables` tables that have any; examples of later
 * tables are not checked (and so are dropped by `keepVisibleSampleValues`), which bounds the cost to one statement
 * per checked table. Enum labels are part of the type, not of rows, and need no check. Pure.
 */
export function sampleValueProbes(
  catalog: Catalog,
  options: {
    /** Tables (with examples) probed at most, in catalog order. Default 100. */
    readonly maxTables?: number;
  } = {},
): ValueProbe[] {
  const maxTables = options.maxTables ?? 100;
  return catalog.tables
    .filter((table) => table.columns.some((column) => (column.sampleValues?.length ?? 0) > 0))
    .slice(0, maxTables)
    .flatMap((table) =>
      table.columns.flatMap((column) =>
        (column.sampleValues ?? []).map((shown) => sampleValueProbe(table, column, shown)),
      ),
    );
}

/**
 * The catalog with only the examples whose probe is in `visible` (keys as `valueProbeKey`); a column left without any
 * has no `sampleValues`. Pure.
 */
export function keepVisibleSampleValues(catalog: Catalog, visible: ReadonlySet<string>): Catalog {
  return {
    ...catalog,
    tables: catalog.tables.map((table) => ({
      ...table,
      columns: table.columns.map((column) => {
        if (column.sampleValues === undefined) return column;
        const kept = column.sampleValues.filter((shown) =>
          visible.has(valueProbeKey(sampleValueProbe(table, column, shown))),
        );
        const { sampleValues: _dropped, ...rest } = column;
        return kept.length > 0 ? { ...rest, sampleValues: kept } : rest;
      }),
    })),
  };
}

/** The catalog without any examples (`sampleValues`). Pure. */
export function withoutSampleValues(catalog: Catalog): Catalog {
  return keepVisibleSampleValues(catalog, new Set());
}
