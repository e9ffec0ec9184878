import type { QueryResult } from "../database/query-executor";
import type { Catalog, ColumnInfo, ForeignKey, TableInfo, TableKind } from "./catalog-types";

/** Runs one introspection statement (inside a read-only scope, on the asking user's session). */
export type CatalogQuery = (sql: string) => Promise<QueryResult>;

const visibleRelations = `
  c.relkind IN ('r', 'v', 'm', 'f', 'p') AND NOT c.relispartition
  AND n.nspname NOT IN ('pg_catalog', 'information_schema')
  AND n.nspname !~ '^pg_(toast|temp_|toast_temp_)'
  AND has_schema_privilege(n.oid, 'USAGE')
  AND (has_table_privilege(c.oid, 'SELECT') OR has_any_column_privilege(c.oid, 'SELECT'))`;

const tablesSql = `SELECT c.oid::text, n.nspname, c.relname, c.relkind::text, obj_description(c.oid, 'pg_class')
FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
WHERE ${visibleRelations}
ORDER BY n.nspname, c.relname`;

const columnsSql = `SELECT c.oid::text, a.attnum::text, a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod),
  a.attnotnull::text, col_description(c.oid, a.attnum),
  (SELECT json_agg(e.enumlabel ORDER BY e.enumsortorder) FROM pg_catalog.pg_enum e WHERE e.enumtypid = a.atttypid)::text
FROM pg_catalog.pg_attribute a
JOIN pg_catalog.pg_class c ON c.oid = a.attrelid
JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
WHERE ${visibleRelations} AND a.attnum > 0 AND NOT a.attisdropped AND has_column_privilege(c.oid, a.attnum, 'SELECT')
ORDER BY c.oid, a.attnum`;

const constraintsSql = `SELECT k.conrelid::text, k.contype::text, k.conname, array_to_string(k.conkey, ','),
  k.confrelid::text, array_to_string(k.confkey, ',')
FROM pg_catalog.pg_constraint k
JOIN pg_catalog.pg_class c ON c.oid = k.conrelid
JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
WHERE k.contype IN ('p', 'f') AND ${visibleRelations}
ORDER BY k.conrelid, k.conname`;

const kinds: Record<string, TableKind> = {
  r: "table",
  v: "view",
  m: "materialized-view",
  f: "foreign-table",
  p: "partitioned-table",
};

interface MutableTable {
  oid: string;
  schema: string;
  name: string;
  kind: TableKind;
  comment: string | null;
  columns: ColumnInfo[];
  columnNames: Map<string, string>;
  primaryKey: string[];
  foreignKeys: ForeignKey[];
}

function namesFor(table: MutableTable | undefined, attributeNumbers: string | null): string[] | undefined {
  if (!table || !attributeNumbers) return undefined;
  const names = attributeNumbers.split(",").map((number) => table.columnNames.get(number));
  return names.every((name) => name !== undefined) ? (names as string[]) : undefined;
}

/**
 * Reads the catalog from `pg_catalog` on the asking session: user schemas, tables, views, materialized views,
 * foreign and partitioned tables (partitions folded into their parent), columns with types, nullability, comments,
 * enum labels, primary and foreign keys — only what the asking role may `SELECT` (table or column privilege, schema `USAGE`).
 * Three statements; deterministic order (schema, table, column position).
 */
export async function introspectCatalog(query: CatalogQuery): Promise<Catalog> {
  const tables = new Map<string, MutableTable>();
  for (const [oid, schema, name, kind, comment] of (await query(tablesSql)).rows) {
    tables.set(oid!, {
      oid: oid!,
      schema: schema!,
      name: name!,
      kind: kinds[kind!] ?? "table",
      comment: comment ?? null,
      columns: [],
      columnNames: new Map(),
      primaryKey: [],
      foreignKeys: [],
    });
  }
  for (const [oid, number, name, dataType, notNull, comment, enumLabels] of (await query(columnsSql)).rows) {
    const table = tables.get(oid!);
    if (!table) continue;
    const column: ColumnInfo = {
      name: name!,
      dataType: dataType!,
      nullable: notNull !== "true",
      comment: comment ?? null,
    };
    table.columns.push(enumLabels ? { ...column, enumValues: JSON.parse(enumLabels) as string[] } : column);
    table.columnNames.set(number!, name!);
  }
  for (const [oid, type, name, keys, referencedOid, referencedKeys] of (await query(constraintsSql)).rows) {
    const table = tables.get(oid!);
    const columns = namesFor(table, keys ?? null);
    if (!table || !columns) continue;
    if (type === "p") {
      table.primaryKey = columns;
      continue;
    }
    const referenced = tables.get(referencedOid!);
    const referencedColumns = namesFor(referenced, referencedKeys ?? null);
    if (!referenced || !referencedColumns) continue;
    table.foreignKeys.push({
      name: name!,
      columns,
      referencedSchema: referenced.schema,
      referencedTable: referenced.name,
      referencedColumns,
    });
  }
  const result: TableInfo[] = [];
  for (const table of tables.values()) {
    if (table.columns.length === 0) continue;
    result.push({
      schema: table.schema,
      name: table.name,
      kind: table.kind,
      comment: table.comment,
      columns: table.columns,
      primaryKey: table.primaryKey,
      foreignKeys: table.foreignKeys,
    });
  }
  return { tables: result };
}
