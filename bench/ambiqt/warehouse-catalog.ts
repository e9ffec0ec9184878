import { alwaysQuoteIdentifier } from "@nlq/engine";
import type pg from "pg";

/** `schema.table`, both quoted. */
export function qualified(schema: string, table: string): string {
  return `${alwaysQuoteIdentifier(schema)}.${alwaysQuoteIdentifier(table)}`;
}

export interface TableColumn {
  readonly name: string;
  /** `format_type` of its type, e.g. `integer`, `character varying(20)`. */
  readonly type: string;
  /** Part of a primary key, unique constraint or foreign key of the table. */
  readonly key: boolean;
}

/** The columns of a table in order, with their types and whether a key constraint covers them. */
export async function tableColumns(client: pg.ClientBase, schema: string, table: string): Promise<TableColumn[]> {
  const result = await client.query<{ name: string; type: string; key: boolean }>(
    `SELECT a.attname AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS type,
            EXISTS (SELECT 1 FROM pg_catalog.pg_constraint k
                     WHERE k.conrelid = c.oid AND k.contype IN ('p', 'u', 'f') AND a.attnum = ANY (k.conkey)) AS key
       FROM pg_catalog.pg_class c
       JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      WHERE n.nspname = $1 AND c.relname = $2
      ORDER BY a.attnum`,
    [schema, table],
  );
  return result.rows;
}

/** Whether the schema has a table of that name. */
export async function tableExists(client: pg.ClientBase, schema: string, table: string): Promise<boolean> {
  const result = await client.query(
    `SELECT 1 FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relname = $2 AND c.relkind IN ('r', 'p')`,
    [schema, table],
  );
  return (result.rowCount ?? 0) > 0;
}

/** A foreign key that references a table: the referencing table and both column lists, in key order. */
export interface IncomingForeignKey {
  readonly table: string;
  readonly columns: readonly string[];
  readonly referencedColumns: readonly string[];
}

/** Foreign keys of other tables (and the table itself) that reference `table`. */
export async function incomingForeignKeys(
  client: pg.ClientBase,
  schema: string,
  table: string,
): Promise<IncomingForeignKey[]> {
  const result = await client.query<{ table: string; columns: string[]; referenced: string[] }>(
    `SELECT r.relname AS table,
            ARRAY(SELECT a.attname FROM unnest(k.conkey) WITH ORDINALITY u(attnum, position)
                    JOIN pg_catalog.pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = u.attnum
                   ORDER BY u.position)::text[] AS columns,
            ARRAY(SELECT a.attname FROM unnest(k.confkey) WITH ORDINALITY u(attnum, position)
                    JOIN pg_catalog.pg_attribute a ON a.attrelid = k.confrelid AND a.attnum = u.attnum
                   ORDER BY u.position)::text[] AS referenced
       FROM pg_catalog.pg_constraint k
       JOIN pg_catalog.pg_class t ON t.oid = k.confrelid
       JOIN pg_catalog.pg_namespace n ON n.oid = t.relnamespace
       JOIN pg_catalog.pg_class r ON r.oid = k.conrelid
      WHERE k.contype = 'f' AND n.nspname = $1 AND t.relname = $2
      ORDER BY k.conname`,
    [schema, table],
  );
  return result.rows.map((row) => ({ table: row.table, columns: row.columns, referencedColumns: row.referenced }));
}

/** The table's own foreign keys as `FOREIGN KEY (…) REFERENCES …` definitions (`pg_get_constraintdef`). */
export async function outgoingForeignKeys(client: pg.ClientBase, schema: string, table: string): Promise<string[]> {
  const result = await client.query<{ definition: string }>(
    `SELECT pg_catalog.pg_get_constraintdef(k.oid) AS definition
       FROM pg_catalog.pg_constraint k
       JOIN pg_catalog.pg_class t ON t.oid = k.conrelid
       JOIN pg_catalog.pg_namespace n ON n.oid = t.relnamespace
      WHERE k.contype = 'f' AND n.nspname = $1 AND t.relname = $2
      ORDER BY k.conname`,
    [schema, table],
  );
  return result.rows.map((row) => row.definition);
}

/** The SQL condition "some row of another table references this row of `alias`", over every incoming key. */
export function referencedCondition(schema: string, alias: string, keys: readonly IncomingForeignKey[]): string {
  if (keys.length === 0) return "false";
  return keys
    .map((key) => {
      const match = key.columns
        .map(
          (column, index) =>
            `r.${alwaysQuoteIdentifier(column)} = ${alias}.${alwaysQuoteIdentifier(key.referencedColumns[index]!)}`,
        )
        .join(" AND ");
      return `EXISTS (SELECT 1 FROM ${qualified(schema, key.table)} r WHERE ${match})`;
    })
    .join(" OR ");
}
