/** Vector-store collection holding a data source's table and column descriptions (one per data source). */
export function catalogCollectionName(dataSourceId: string): string {
  return `nlq_catalog_${dataSourceId.replace(/[^A-Za-z0-9_-]/g, "_")}`;
}

/** Point id of a table description. */
export function tablePointId(table: string): string {
  return `table:${table}`;
}

/** Point id of a column description. */
export function columnPointId(table: string, column: string): string {
  return `column:${table}.${column}`;
}
