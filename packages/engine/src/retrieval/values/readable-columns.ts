import type { QueryExecutor } from "../../database/query-executor";
import { columnKey, type ValueColumn } from "./value-column";

function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * The keys (`columnKey`) of the given columns that `role` may SELECT, asked of PostgreSQL itself
 * (`has_column_privilege`, which honours table grants, column grants and role membership, and `has_schema_privilege`
 * USAGE: a table in a schema the role cannot enter is unreadable). Relations are found through the catalogs by name,
 * not `to_regclass`, which fails with "permission denied for schema" instead of leaving such a table out.
 * Without `role`, the executor's own session user is asked about. Columns that no longer exist are left out.
 */
export async function readableColumnKeys(options: {
  readonly executor: QueryExecutor;
  readonly columns: readonly ValueColumn[];
  /** Role to check; default the session's current user. */
  readonly role?: string;
  readonly abortSignal?: AbortSignal;
}): Promise<Set<string>> {
  const readable = new Set<string>();
  if (options.columns.length === 0) return readable;
  const rows = options.columns
    .map((column) => `(${literal(column.schema)}, ${literal(column.table)}, ${literal(column.column)})`)
    .join(", ");
  const role = options.role === undefined ? "current_user" : literal(options.role);
  const result = await options.executor.query({
    sql:
      `SELECT wanted.schema_name, wanted.table_name, wanted.column_name FROM (VALUES ${rows}) AS wanted(schema_name, table_name, column_name) ` +
      "JOIN pg_catalog.pg_namespace AS namespace ON namespace.nspname = wanted.schema_name " +
      "JOIN pg_catalog.pg_class AS relation ON relation.relnamespace = namespace.oid AND relation.relname = wanted.table_name " +
      "JOIN pg_catalog.pg_attribute AS attribute ON attribute.attrelid = relation.oid " +
      "AND attribute.attname = wanted.column_name AND attribute.attnum > 0 AND NOT attribute.attisdropped " +
      `WHERE has_schema_privilege(${role}, namespace.oid, 'USAGE') ` +
      `AND has_column_privilege(${role}, relation.oid, attribute.attnum, 'SELECT')`,
    abortSignal: options.abortSignal,
  });
  for (const [schema, table, column] of result.rows) {
    readable.add(columnKey({ schema: schema ?? "", table: table ?? "", column: column ?? "" }));
  }
  return readable;
}
