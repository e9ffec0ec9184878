import { type Catalog, type TableInfo, tableKey } from "../catalog/catalog-types";

/** Chosen columns per table: `tableKey` → column names (exact catalog spelling). */
export type TableColumnSelection = ReadonlyMap<string, ReadonlySet<string>>;

function unquote(name: string): string {
  return name
    .trim()
    .replace(/^"(.*)"$/, "$1")
    .replaceAll('""', '"');
}

function splitQualified(name: string): string[] {
  const parts: string[] = [];
  const pattern = /"((?:[^"]|"")*)"|([^."]+)/g;
  for (const match of name.trim().matchAll(pattern))
    parts.push(match[1] !== undefined ? match[1].replaceAll('""', '"') : match[2]!.trim());
  return parts.filter((part) => part !== "");
}

/**
 * Finds tables and columns named by a model, tolerantly: `schema.table` or `table`, quoted or not, any case.
 * An unqualified name matching tables in several schemas resolves to all of them.
 */
export class CatalogNames {
  readonly #byQualified = new Map<string, TableInfo>();
  readonly #byName = new Map<string, TableInfo[]>();

  constructor(catalog: Catalog) {
    for (const table of catalog.tables) {
      this.#byQualified.set(tableKey(table).toLowerCase(), table);
      const list = this.#byName.get(table.name.toLowerCase()) ?? [];
      list.push(table);
      this.#byName.set(table.name.toLowerCase(), list);
    }
  }

  /** Tables a name refers to (empty when none). */
  tables(name: string): TableInfo[] {
    const parts = splitQualified(name);
    if (parts.length >= 2) {
      const qualified = this.#byQualified.get(`${parts.at(-2)}.${parts.at(-1)}`.toLowerCase());
      if (qualified) return [qualified];
    }
    const whole = this.#byQualified.get(unquote(name).toLowerCase());
    if (whole) return [whole];
    return this.#byName.get((parts.at(-1) ?? "").toLowerCase()) ?? [];
  }

  /** The catalog spelling of `column` in `table`, or undefined. */
  column(table: TableInfo, column: string): string | undefined {
    const wanted = unquote(column).toLowerCase();
    return table.columns.find((candidate) => candidate.name.toLowerCase() === wanted)?.name;
  }

  /** Resolves `table.column` / `schema.table.column` to catalog columns. */
  qualifiedColumn(name: string): Array<{ table: TableInfo; column: string }> {
    const parts = splitQualified(name);
    if (parts.length < 2) return [];
    const column = parts.at(-1)!;
    return this.tables(
      parts
        .slice(0, -1)
        .map((part) => `"${part.replaceAll('"', '""')}"`)
        .join("."),
    )
      .map((table) => ({ table, column: this.column(table, column) }))
      .filter((match): match is { table: TableInfo; column: string } => match.column !== undefined);
  }
}

/**
 * The sub-catalog of the selected columns, in catalog order, **with the key columns needed to join**: every selected
 * table keeps its primary-key columns, and each foreign key between two selected tables keeps its columns on both
 * sides (the foreign key itself stays in the sub-catalog). Foreign keys to unselected tables are dropped.
 */
export function restrictCatalog(catalog: Catalog, selection: TableColumnSelection): Catalog {
  const selectedTables = new Set(selection.keys());
  const keep = new Map<string, Set<string>>();
  for (const [table, columns] of selection) keep.set(table, new Set(columns));
  for (const table of catalog.tables) {
    const key = tableKey(table);
    if (!selectedTables.has(key)) continue;
    for (const column of table.primaryKey) keep.get(key)!.add(column);
    for (const foreignKey of table.foreignKeys) {
      const target = `${foreignKey.referencedSchema}.${foreignKey.referencedTable}`;
      if (!selectedTables.has(target)) continue;
      for (const column of foreignKey.columns) keep.get(key)!.add(column);
      for (const column of foreignKey.referencedColumns) keep.get(target)!.add(column);
    }
  }
  return {
    ...catalog,
    tables: catalog.tables
      .filter((table) => selectedTables.has(tableKey(table)))
      .map((table) => {
        const columns = keep.get(tableKey(table))!;
        return {
          ...table,
          columns: table.columns.filter((column) => columns.has(column.name)),
          foreignKeys: table.foreignKeys.filter((foreignKey) =>
            selectedTables.has(`${foreignKey.referencedSchema}.${foreignKey.referencedTable}`),
          ),
        };
      }),
  };
}

/** Every column of the given tables. */
export function selectWholeTables(catalog: Catalog, tables: Iterable<string>): Map<string, Set<string>> {
  const wanted = new Set(tables);
  const selection = new Map<string, Set<string>>();
  for (const table of catalog.tables) {
    if (wanted.has(tableKey(table)))
      selection.set(tableKey(table), new Set(table.columns.map((column) => column.name)));
  }
  return selection;
}

/**
 * Adds the bridge tables of `selection`: tables of `catalog` not selected that are joined by foreign keys (either
 * direction) to at least two selected tables, e.g. a junction table, with no column of their own (their key columns
 * are added by `restrictCatalog`).
 */
export function addBridgeTables(catalog: Catalog, selection: TableColumnSelection): Map<string, ReadonlySet<string>> {
  const result = new Map<string, ReadonlySet<string>>(selection);
  const neighbours = new Map<string, Set<string>>();
  const link = (left: string, right: string) => {
    if (left === right) return;
    if (!neighbours.has(left)) neighbours.set(left, new Set());
    if (!neighbours.has(right)) neighbours.set(right, new Set());
    neighbours.get(left)!.add(right);
    neighbours.get(right)!.add(left);
  };
  for (const table of catalog.tables)
    for (const foreignKey of table.foreignKeys)
      link(tableKey(table), `${foreignKey.referencedSchema}.${foreignKey.referencedTable}`);
  for (const table of catalog.tables) {
    const key = tableKey(table);
    if (selection.has(key)) continue;
    const joined = [...(neighbours.get(key) ?? [])].filter((neighbour) => selection.has(neighbour));
    if (joined.length >= 2) result.set(key, new Set());
  }
  return result;
}
