import { type Catalog, type TableInfo, tableKey } from "../catalog/catalog-types";

/**
 * The "whole database" shown to the synthetic-example generator (CHASE-SQL Algorithm 2, step 2): every table the
 * role may read when there are at most `maxTables`; otherwise the tables selected for the question, then the tables
 * linked to them by a foreign key (either direction), then the others in catalog order, up to `maxTables`, so a
 * warehouse of thousands of tables does not fill the prompt. The chosen tables keep the full catalog's order.
 */
export function wholeSchemaCatalog(fullCatalog: Catalog, selected: Catalog, maxTables: number): Catalog {
  if (fullCatalog.tables.length <= maxTables) return fullCatalog;
  const selectedKeys = new Set(selected.tables.map(tableKey));
  const neighbours = new Set<string>();
  for (const table of fullCatalog.tables) {
    const key = tableKey(table);
    for (const foreignKey of table.foreignKeys) {
      const target = `${foreignKey.referencedSchema}.${foreignKey.referencedTable}`;
      if (selectedKeys.has(key)) neighbours.add(target);
      if (selectedKeys.has(target)) neighbours.add(key);
    }
  }
  const rank = (table: TableInfo) => {
    const key = tableKey(table);
    return selectedKeys.has(key) ? 0 : neighbours.has(key) ? 1 : 2;
  };
  const chosen = new Set(
    fullCatalog.tables
      .map((table, index) => ({ table, index, rank: rank(table) }))
      .sort((left, right) => left.rank - right.rank || left.index - right.index)
      .slice(0, Math.max(0, maxTables))
      .map((entry) => entry.table),
  );
  return { tables: fullCatalog.tables.filter((table) => chosen.has(table)) };
}
