import type { QueryResult } from "./query-executor";

/** A relation by schema and name, as written in the catalog (unquoted). */
export interface RelationName {
  readonly schema: string;
  readonly table: string;
}

/** The key `ordinaryTables` returns for a relation: `JSON.stringify([schema, table])`. */
export function relationKey(relation: RelationName): string {
  return JSON.stringify([relation.schema, relation.table]);
}

/**
 * The statement naming which of `relations` are ordinary or partitioned tables (`relkind` r, p) right now. Reading
 * one of those reads stored rows; reading a view, materialized view or foreign table runs code someone else wrote (a
 * view's body, an FDW) in the asking session, so nlq only ever samples or probes the former. Catalog only: no
 * relation is read; every operator is schema-qualified (the asking role controls the search path). Pure.
 */
export function ordinaryTablesSql(relations: readonly RelationName[]): string {
  const list = JSON.stringify(relations.map((relation) => ({ s: relation.schema, t: relation.table })));
  return `SELECT n.nspname, c.relname
FROM pg_catalog.json_to_recordset(E'${list.replaceAll("\\", "\\\\").replaceAll("'", "''")}'::pg_catalog.json) AS r(s pg_catalog.text, t pg_catalog.text)
JOIN pg_catalog.pg_namespace n ON n.nspname OPERATOR(pg_catalog.=) r.s
JOIN pg_catalog.pg_class c ON c.relnamespace OPERATOR(pg_catalog.=) n.oid AND c.relname OPERATOR(pg_catalog.=) r.t
WHERE c.relkind OPERATOR(pg_catalog.=) 'r' OR c.relkind OPERATOR(pg_catalog.=) 'p'`;
}

/**
 * Which of `relations` are ordinary or partitioned tables (keys as `relationKey`), in one catalog query on the
 * session (an `E'…'` literal: read the same under any `standard_conforming_strings`). Nothing is queried for an empty
 * list.
 */
export async function ordinaryTables(
  query: (sql: string) => Promise<QueryResult>,
  relations: readonly RelationName[],
): Promise<Set<string>> {
  if (relations.length === 0) return new Set();
  const rows = (await query(ordinaryTablesSql(relations))).rows;
  return new Set(rows.map(([schema, table]) => relationKey({ schema: schema ?? "", table: table ?? "" })));
}
