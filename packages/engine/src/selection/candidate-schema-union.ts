import type { Catalog, TableInfo } from "../catalog/catalog-types";
import { tableKey } from "../catalog/catalog-types";
import { referencedColumns } from "../sql/referenced-columns";

/**
 * The part of `catalog` that the given queries use (CHASE-SQL's schema union, §2.5): each catalog table named in a
 * FROM/JOIN of any query (schema-qualified names match that schema, unqualified names match the table in any schema),
 * with the columns whose names any query references (all of them when a query uses `*`). Primary keys and foreign keys
 * stay when all their columns stay (and, for a foreign key, its target table). Tables and columns keep catalog order.
 * Undefined when a query does not parse or no catalog table is referenced: the caller then shows its whole schema.
 * Needs `loadSqlParser()`.
 */
export function candidateSchemaUnion(catalog: Catalog, queries: readonly string[]): Catalog | undefined {
  const references = queries.map(referencedColumns);
  if (references.some((reference) => reference === undefined)) return undefined;
  const columns = new Set(references.flatMap((reference) => [...reference!.columns]));
  const star = references.some((reference) => reference!.star);
  const named = (table: TableInfo) =>
    references.some((reference) =>
      reference!.tables.some(
        (written) => written.name === table.name && (written.schema === undefined || written.schema === table.schema),
      ),
    );
  const tables = catalog.tables.filter(named);
  if (tables.length === 0) return undefined;
  const kept = new Set(tables.map(tableKey));
  return {
    tables: tables.map((table) => {
      const tableColumns = table.columns.filter((column) => star || columns.has(column.name));
      const names = new Set(tableColumns.map((column) => column.name));
      return {
        ...table,
        columns: tableColumns,
        primaryKey: table.primaryKey.every((column) => names.has(column)) ? table.primaryKey : [],
        foreignKeys: table.foreignKeys.filter(
          (key) =>
            key.columns.every((column) => names.has(column)) &&
            kept.has(tableKey({ schema: key.referencedSchema, name: key.referencedTable })),
        ),
      };
    }),
  };
}
