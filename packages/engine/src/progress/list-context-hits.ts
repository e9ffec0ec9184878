/** Most context hits named in one progress detail. */
const maximumHits = 8;

/** `schema.table.column, schema.table and 3 more`: the first context hits of a `context-end` event, for one line. */
export function listContextHits(hits: ReadonlyArray<{ readonly table: string; readonly column?: string }>): string {
  const names = hits.slice(0, maximumHits).map((hit) => (hit.column ? `${hit.table}.${hit.column}` : hit.table));
  return `${names.join(", ")}${hits.length > maximumHits ? ` and ${hits.length - maximumHits} more` : ""}`;
}
