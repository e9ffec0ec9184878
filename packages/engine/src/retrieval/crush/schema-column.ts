/** One column of a (possibly multi-database) catalog, the unit schema retrieval ranks. */
export interface SchemaColumn {
  /** Database or schema the table belongs to; part of the key when present. */
  readonly database?: string;
  readonly table: string;
  readonly column: string;
  /** Optional description (`COMMENT ON`, catalog notes), embedded with the name when present. */
  readonly description?: string;
}

/** `database.table.column` (or `table.column` without a database), as in the benchmark gold lists. */
export function schemaColumnKey(column: SchemaColumn): string {
  return column.database ? `${column.database}.${column.table}.${column.column}` : `${column.table}.${column.column}`;
}

/** `database.table` (or `table`). */
export function schemaTableKey(column: SchemaColumn): string {
  return column.database ? `${column.database}.${column.table}` : column.table;
}

/** Options for the text a column is embedded from. */
export interface SchemaColumnTextOptions {
  /** Put the database name in front. Default false. */
  readonly includeDatabase?: boolean;
}

/** The text a column is embedded from: `table.column`, then `: description` when there is one. */
export function schemaColumnText(column: SchemaColumn, options: SchemaColumnTextOptions = {}): string {
  const name = `${options.includeDatabase && column.database ? `${column.database}.` : ""}${column.table}.${column.column}`;
  return column.description ? `${name}: ${column.description}` : name;
}
