import type { SchemaColumn } from "../crush/schema-column";
import { schemaTableKey } from "../crush/schema-column";
import type { ColumnLink } from "../crush/schema-graph";

/** Options of `createStructureExpansion`. */
export interface StructureExpansionOptions {
  /** Tables with a column among the first `seedColumns` of the ranking are the selected tables. Default 10. */
  readonly seedColumns?: number;
  /** Longest join path, in key links, searched between two selected tables. Default 2 (one bridge table). */
  readonly maxLinks?: number;
}

/**
 * The structure step of question-only retrieval: tables whose columns rank well pull in the key columns that join
 * them. Walking the ranking, when a selected table (one with a column among the first `seedColumns`) first appears,
 * the key columns on the shortest join path (≤ `maxLinks` key links, through bridge tables, same database) from it to
 * each selected table seen before are inserted right after it, unless they already came earlier. Columns keep their
 * order otherwise; the result is cut to `limit`. Built once per catalog (key links from foreign keys or
 * `inferKeyLinks`); pure.
 */
export function createStructureExpansion(
  columns: readonly SchemaColumn[],
  links: readonly ColumnLink[],
  options: StructureExpansionOptions = {},
): (ranking: readonly number[], limit: number) => number[] {
  const seedColumns = options.seedColumns ?? 10;
  const maxLinks = options.maxLinks ?? 2;
  const tableIds = new Map<string, number>();
  const tableOf = columns.map((column) => {
    const key = schemaTableKey(column);
    if (!tableIds.has(key)) tableIds.set(key, tableIds.size);
    return tableIds.get(key)!;
  });
  /** Per table: neighbouring table → the link columns (both ends) joining them. */
  const neighbours: Map<number, number[]>[] = Array.from({ length: tableIds.size }, () => new Map());
  for (const { from, to } of links) {
    const left = tableOf[from]!;
    const right = tableOf[to]!;
    if (left === right) continue;
    for (const [table, other] of [
      [left, right],
      [right, left],
    ] as const) {
      const joined = neighbours[table]!.get(other) ?? [];
      for (const column of [from, to]) if (!joined.includes(column)) joined.push(column);
      neighbours[table]!.set(other, joined);
    }
  }
  const pathCache = new Map<string, number[]>();
  /** Key columns on a shortest path of at most `maxLinks` links between two tables; empty when none. */
  const joinPath = (start: number, goal: number): number[] => {
    const cacheKey = `${start}:${goal}`;
    const cached = pathCache.get(cacheKey);
    if (cached) return cached;
    const previous = new Map<number, number>([[start, -1]]);
    let frontier = [start];
    for (let depth = 0; depth < maxLinks && !previous.has(goal) && frontier.length > 0; depth++) {
      const next: number[] = [];
      for (const table of frontier)
        for (const other of neighbours[table]!.keys())
          if (!previous.has(other)) {
            previous.set(other, table);
            next.push(other);
          }
      frontier = next;
    }
    const path: number[] = [];
    if (previous.has(goal))
      for (let table = goal; previous.get(table)! !== -1; table = previous.get(table)!)
        path.push(...neighbours[previous.get(table)!]!.get(table)!);
    pathCache.set(cacheKey, path);
    return path;
  };
  return (ranking, limit) => {
    const selected = new Set(ranking.slice(0, seedColumns).map((column) => tableOf[column]!));
    const output: number[] = [];
    const emitted = new Set<number>();
    const seenTables: number[] = [];
    const emit = (column: number) => {
      if (emitted.has(column)) return;
      emitted.add(column);
      output.push(column);
    };
    for (const column of ranking) {
      if (output.length >= limit) break;
      emit(column);
      const table = tableOf[column]!;
      if (!selected.has(table) || seenTables.includes(table)) continue;
      for (const earlier of seenTables) for (const key of joinPath(earlier, table)) emit(key);
      seenTables.push(table);
    }
    return output.slice(0, limit);
  };
}
