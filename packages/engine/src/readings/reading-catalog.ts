import { type Catalog, tableKey } from "../catalog/catalog-types";

/**
 * The selected schema with `tables` (`schema.table`) of the full catalog added where it lacks them, for the candidates
 * of a reading whose option lies beyond the schema selector's subset (a warehouse's other copy, a split-out table).
 * Returns `selected` itself when nothing is missing.
 */
export function catalogWithTables(selected: Catalog, catalog: Catalog, tables: readonly string[]): Catalog {
  const present = new Set(selected.tables.map(tableKey));
  const wanted = new Set(tables.filter((table) => !present.has(table)));
  if (wanted.size === 0) return selected;
  return { tables: [...selected.tables, ...catalog.tables.filter((table) => wanted.has(tableKey(table)))] };
}
