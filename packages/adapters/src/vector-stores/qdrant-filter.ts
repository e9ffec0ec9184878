import type { VectorFilter } from "@nlq/engine";

/** A Qdrant filter condition as the REST API documents it (`{ key, match: { value } | { any } }`). */
export type QdrantFieldCondition = {
  key: string;
  match: { value: string } | { any: string[] };
};

/** A Qdrant filter: every `must` condition holds. */
export type QdrantFilter = { must: QdrantFieldCondition[] };

/**
 * Translates an nlq filter to a Qdrant payload filter (`must` with `match`). Returns `undefined`
 * when there is nothing to filter on. An empty `tables` list matches nothing; callers short-circuit
 * it (see `filterMatchesNothing`) rather than sending `any: []`.
 */
export function toQdrantFilter(filter: VectorFilter | undefined): QdrantFilter | undefined {
  if (filter === undefined) return undefined;
  const must: QdrantFieldCondition[] = [];
  if (filter.kind !== undefined) must.push({ key: "kind", match: { value: filter.kind } });
  if (filter.table !== undefined) must.push({ key: "table", match: { value: filter.table } });
  if (filter.tables !== undefined) must.push({ key: "table", match: { any: [...filter.tables] } });
  return must.length === 0 ? undefined : { must };
}

/** Whether the filter can match no point at all (an empty `tables` list). */
export function filterMatchesNothing(filter: VectorFilter | undefined): boolean {
  return filter?.tables !== undefined && filter.tables.length === 0;
}
