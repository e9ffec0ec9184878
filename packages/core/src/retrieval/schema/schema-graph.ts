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
  connected(left: number, right: number): boolean;
}

export function buildSchemaGraph(columns: readonly SchemaColumn[], links: readonly ColumnLink[] = []): SchemaGraph {
  const tableNumbers = new Map<string, number>();
  const tableOf = columns.map((column) => {
    const key = schemaTableKey(column);
    if (!tableNumbers.has(key)) tableNumbers.set(key, tableNumbers.size);
    return tableNumbers.get(key)!;
  });
  const count = columns.length;
  const linked = new Set<number>();
  for (const link of links) {
    linked.add(link.from * count + link.to);
    linked.add(link.to * count + link.from);
  }
  return {
    connected(left, right) {
      if (left === right) return false;
      return tableOf[left] === tableOf[right] || linked.has(left * count + right);
    },
  };
}

function looksLikeKey(name: string): boolean {
  return /(^|[^a-z])id$|id$|_key$|code$|^key$/i.test(name);
}

/**
 * Guesses foreign-key links for catalogs without key metadata (like the CRUSH4SQL benchmark corpora): columns of
 * different tables in the same database with the same key-like name (`…id`, `…_key`, `…code`).
 */
export function inferKeyLinks(columns: readonly SchemaColumn[]): ColumnLink[] {
  const byName = new Map<string, number[]>();
  columns.forEach((column, index) => {
    if (!looksLikeKey(column.column)) return;
    const key = `${column.database ?? ""}\u0000${column.column.toLowerCase()}`;
    byName.set(key, [...(byName.get(key) ?? []), index]);
  });
  const links: ColumnLink[] = [];
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
