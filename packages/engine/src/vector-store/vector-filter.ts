import type { VectorFilter, VectorPayload } from "./vector-store";

/** Whether a payload satisfies every condition of the filter (an absent filter matches everything). */
export function matchesFilter(payload: VectorPayload, filter: VectorFilter | undefined): boolean {
  if (filter === undefined) return true;
  if (filter.kind !== undefined && payload.kind !== filter.kind) return false;
  if (filter.table !== undefined && payload.table !== filter.table) return false;
  if (filter.tables !== undefined && !filter.tables.includes(payload.table)) return false;
  return true;
}
