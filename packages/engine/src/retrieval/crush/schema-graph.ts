import { type SchemaColumn, schemaTableKey } from "./schema-column";

/** A foreign-key link between two columns, by index into the column list. */
export interface ColumnLink {
  readonly from: number;
  readonly to: number;
}

/**
 * Which columns are connected in the schema graph (CRUSH Eq. 5): columns of the same table, and columns joined by a
 * foreign key. When the catalog has no key information, `inferKeyLinks` supplies likely key links.
 */
export interface SchemaGraph {
  /** How two columns are connected: same table, a foreign-key link, or not at all. */
  connection(left: number, right: number): "same-table" | "key-link" | "same-database" | undefined;
  connected(left: number, right: number): boolean;
}

export function buildSchemaGraph(columns: readonly SchemaColumn[], links: readonly ColumnLink[] = []): SchemaGraph {
  const tableNumbers = new Map<string, number>();
  const tableOf = columns.map((column) => {
    const key = schemaTableKey(column);
    if (!tableNumbers.has(key)) tableNumbers.set(key, tableNumbers.size);
    return tableNumbers.get(key)!;
  });
  const databaseOf = columns.map((column) => column.database ?? "");
  const count = columns.length;
  const linked = new Set<number>();
  for (const link of links) {
    linked.add(link.from * count + link.to);
    linked.add(link.to * count + link.from);
  }
  const connection = (left: number, right: number) => {
    if (left === right) return undefined;
    if (linked.has(left * count + right)) return "key-link" as const;
    if (tableOf[left] === tableOf[right]) return "same-table" as const;
    return databaseOf[left] === databaseOf[right] ? ("same-database" as const) : undefined;
  };
  return {
    connection,
    connected: (left, right) => {
      const kind = connection(left, right);
      return kind === "same-table" || kind === "key-link";
    },
  };
}

function squash(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, "");
}

function singular(name: string): string {
  return name.endsWith("ies") ? `${name.slice(0, -3)}y` : name.endsWith("s") ? name.slice(0, -1) : name;
}

function looksLikeKey(name: string): boolean {
  return /(^|[^a-z])id$|id$|_key$|code$|^key$/i.test(name);
}

/**
 * Guesses foreign-key links for catalogs without key metadata (like the CRUSH4SQL benchmark corpora): columns of
 * different tables in the same database with the same key-like name (`…id`, `…_key`, `…code`), and a
 * `<table>_id`/`<table>id` column to that table's `id` column (`hero_attribute.hero_id` → `hero.id`).
 */
export function inferKeyLinks(columns: readonly SchemaColumn[]): ColumnLink[] {
  const byName = new Map<string, number[]>();
  columns.forEach((column, index) => {
    if (!looksLikeKey(column.column)) return;
    const key = `${column.database ?? ""}\u0000${column.column.toLowerCase()}`;
    byName.set(key, [...(byName.get(key) ?? []), index]);
  });
  const links: ColumnLink[] = [];
  const idColumnOfTable = new Map<string, number>();
  columns.forEach((column, index) => {
    if (squash(column.column) === "id")
      idColumnOfTable.set(`${column.database ?? ""}\u0000${singular(squash(column.table))}`, index);
  });
  columns.forEach((column, index) => {
    const name = squash(column.column);
    if (!name.endsWith("id") || name === "id") return;
    const target = idColumnOfTable.get(`${column.database ?? ""}\u0000${singular(name.slice(0, -2))}`);
    if (target !== undefined && schemaTableKey(columns[target]!) !== schemaTableKey(column))
      links.push({ from: index, to: target });
  });
  for (const group of byName.values()) {
    for (let first = 0; first < group.length; first++) {
      for (let second = first + 1; second < group.length; second++) {
        const from = group[first]!;
        const to = group[second]!;
        if (schemaTableKey(columns[from]!) !== schemaTableKey(columns[to]!)) links.push({ from, to });
      }
    }
  }
  return links;
}
