import { alwaysQuoteIdentifier } from "@nlq/engine";
import type pg from "pg";
import { chooseIndexes, driftKindOf, driftValue } from "./value-drift";
import { type IncomingForeignKey, qualified, referencedCondition } from "./warehouse-catalog";

/** What a drift changed, for the materialisation report. */
export interface DriftCount {
  readonly changed: number;
  readonly of: number;
}

export interface DriftColumnOptions {
  readonly schema: string;
  readonly table: string;
  readonly column: string;
  /** The column's `format_type`. */
  readonly type: string;
  /** Share of its non-NULL rows to change, at least one row. */
  readonly share: number;
  /** Only values the column already holds (a key column). Default false. */
  readonly existingValuesOnly?: boolean;
  readonly random: () => number;
}

/**
 * Changes `share` of a column's non-NULL values in place to drifted ones (`driftValue`): chosen at random, each
 * written back as text cast to the column's type. Rows whose value cannot drift are left as they are.
 */
export async function driftColumn(client: pg.ClientBase, options: DriftColumnOptions): Promise<DriftCount> {
  const table = qualified(options.schema, options.table);
  const column = alwaysQuoteIdentifier(options.column);
  const { rows } = await client.query<{ row: string; value: string }>(
    `SELECT ctid::text AS row, ${column}::text AS value FROM ${table} WHERE ${column} IS NOT NULL ORDER BY ctid`,
  );
  const values = rows.map((row) => row.value);
  const kind = driftKindOf(options.type);
  let changed = 0;
  for (const index of chooseIndexes(
    rows.length,
    Math.max(1, Math.round(rows.length * options.share)),
    options.random,
  )) {
    const row = rows[index]!;
    const drifted = driftValue(row.value, {
      kind,
      values,
      random: options.random,
      ...(options.existingValuesOnly === true ? { existingValuesOnly: true } : {}),
    });
    if (drifted === undefined || drifted === row.value) continue;
    await client.query(`UPDATE ${table} SET ${column} = $1::${options.type} WHERE ctid = $2::tid`, [drifted, row.row]);
    changed++;
  }
  return { changed, of: rows.length };
}

/**
 * Deletes `share` of a table's rows (at least one, never every row) that no other row references through `keys`
 * (the incoming foreign keys, so every key still holds): rows a copy never received.
 */
export async function deleteUnreferencedRows(
  client: pg.ClientBase,
  options: {
    readonly schema: string;
    readonly table: string;
    readonly keys: readonly IncomingForeignKey[];
    readonly share: number;
    readonly random: () => number;
  },
): Promise<DriftCount> {
  const table = qualified(options.schema, options.table);
  const total = Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n);
  const { rows } = await client.query<{ row: string }>(
    `SELECT t.ctid::text AS row FROM ${table} t WHERE NOT (${referencedCondition(options.schema, "t", options.keys)}) ORDER BY t.ctid`,
  );
  const count = Math.min(rows.length, total - 1, Math.max(1, Math.round(total * options.share)));
  const chosen = chooseIndexes(rows.length, count, options.random).map((index) => rows[index]!.row);
  if (chosen.length > 0) await client.query(`DELETE FROM ${table} WHERE ctid = ANY ($1::tid[])`, [chosen]);
  return { changed: chosen.length, of: total };
}

/**
 * Puts a table's rows back in primary-key order after drift (an UPDATE writes the new row version at the end of the
 * table, so an unordered `SELECT *` would list the drifted rows last): `CLUSTER` on the primary key, then `SET WITHOUT
 * CLUSTER` so the catalog keeps no trace. A table without a primary key is left as it is.
 */
export async function restoreKeyOrder(client: pg.ClientBase, schema: string, table: string): Promise<void> {
  const { rows } = await client.query<{ index: string }>(
    `SELECT i.relname AS index
       FROM pg_catalog.pg_index x
       JOIN pg_catalog.pg_class i ON i.oid = x.indexrelid
       JOIN pg_catalog.pg_class t ON t.oid = x.indrelid
       JOIN pg_catalog.pg_namespace n ON n.oid = t.relnamespace
      WHERE x.indisprimary AND n.nspname = $1 AND t.relname = $2`,
    [schema, table],
  );
  if (rows.length === 0) return;
  const qualifiedTable = qualified(schema, table);
  await client.query(`CLUSTER ${qualifiedTable} USING ${alwaysQuoteIdentifier(rows[0]!.index)}`);
  await client.query(`ALTER TABLE ${qualifiedTable} SET WITHOUT CLUSTER`);
}
