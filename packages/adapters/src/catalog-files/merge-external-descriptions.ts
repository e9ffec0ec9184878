import type { Catalog } from "@nlq/engine";
import type { ExternalDescriptions } from "./external-descriptions";

function key(...parts: string[]): string {
  return parts.map((part) => part.toLowerCase()).join("\u0000");
}

/**
 * Fills catalog descriptions from external files. **`COMMENT ON` wins**: a comment is the database owner's own,
 * current statement about the element and travels with the schema; a file only fills tables and columns that have no
 * comment. Tables match by name (`table` or `schema.table`) and columns by name, case-insensitively; descriptions of
 * elements the catalog does not have (or the asking role cannot read) are ignored.
 */
export function mergeExternalDescriptions(catalog: Catalog, descriptions: ExternalDescriptions): Catalog {
  if (descriptions.columns.length === 0 && descriptions.tables.length === 0) return catalog;
  const columnDescriptions = new Map<string, string>();
  for (const entry of descriptions.columns) columnDescriptions.set(key(entry.table, entry.column), entry.description);
  const tableDescriptions = new Map<string, string>();
  for (const entry of descriptions.tables) tableDescriptions.set(key(entry.table), entry.description);
  return {
    ...catalog,
    tables: catalog.tables.map((table) => {
      const qualified = `${table.schema}.${table.name}`;
      const describeColumn = (column: string) =>
        columnDescriptions.get(key(qualified, column)) ?? columnDescriptions.get(key(table.name, column));
      return {
        ...table,
        comment:
          table.comment ?? tableDescriptions.get(key(qualified)) ?? tableDescriptions.get(key(table.name)) ?? null,
        columns: table.columns.map((column) =>
          column.comment !== null ? column : { ...column, comment: describeColumn(column.name) ?? null },
        ),
      };
    }),
  };
}
