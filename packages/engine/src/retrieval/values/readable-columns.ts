import type { QueryExecutor } from "../../database/query-executor";
import { columnKey, type ValueColumn } from "./value-column";
import { escapedStringLiteral as literal } from "./value-visibility-statement";

/**
 * The keys (`columnKey`) of the given columns that `role` may SELECT, asked of PostgreSQL itself
 * (`has_column_privilege`, which honours table grants, column grants and role membership, and `has_schema_privilege`
 * USAGE: a table in a schema the role cannot enter is unreadable). Relations are found through the catalogs by name,
 * not `to_regclass`, which fails with "permission denied for schema" instead of leaving such a table out. Functions and
 * operators are schema-qualified and literals read the same under any `standard_conforming_strings`: the statement
 * runs on the asking session, whose search path and settings the asking role controls.
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
      "JOIN pg_catalog.pg_namespace AS namespace ON namespace.nspname OPERATOR(pg_catalog.=) wanted.schema_name " +
      "JOIN pg_catalog.pg_class AS relation ON relation.relnamespace OPERATOR(pg_catalog.=) namespace.oid " +
      "AND relation.relname OPERATOR(pg_catalog.=) wanted.table_name " +
      "JOIN pg_catalog.pg_attribute AS attribute ON attribute.attrelid OPERATOR(pg_catalog.=) relation.oid " +
      "AND attribute.attname OPERATOR(pg_catalog.=) wanted.column_name AND attribute.attnum OPERATOR(pg_catalog.>) 0 " +
      "AND NOT attribute.attisdropped " +
      `WHERE pg_catalog.has_schema_privilege(${role}, namespace.oid, 'USAGE') ` +
      `AND pg_catalog.has_column_privilege(${role}, relation.oid, attribute.attnum, 'SELECT')`,
    abortSignal: options.abortSignal,
  });
  for (const [schema, table, column] of result.rows) {
    readable.add(columnKey({ schema: schema ?? "", table: table ?? "", column: column ?? "" }));
  }
  return readable;
}
