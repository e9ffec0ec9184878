import { alwaysQuoteIdentifier } from "@nlq/engine";
import type pg from "pg";
import type { AmbiqtChange } from "./ambiqt-row";
import { deleteUnreferencedRows, driftColumn, restoreKeyOrder } from "./drift-rows";
import { queryReferences } from "./gold-references";
import { AmbiqtMaterialiseError } from "./materialise-error";
import {
  incomingForeignKeys,
  outgoingForeignKeys,
  qualified,
  type TableColumn,
  tableColumns,
  tableExists,
} from "./warehouse-catalog";

/** What every change is given: the connection (inside the attempt's transaction, `search_path` on the schema). */
export interface ChangeContext {
  readonly client: pg.ClientBase;
  readonly schema: string;
  /** Both gold readings in PostgreSQL. */
  readonly golds: readonly [string, string];
  /** How much drifts in this attempt (share of rows), rising with each attempt. */
  readonly share: number;
  readonly random: () => number;
}

async function columnsOf(context: ChangeContext, table: string): Promise<TableColumn[]> {
  const columns = await tableColumns(context.client, context.schema, table);
  if (columns.length === 0) throw new AmbiqtMaterialiseError(`no table ${context.schema}.${table}`);
  return columns;
}

function pick<T>(items: readonly T[], random: () => number): T {
  return items[Math.floor(random() * items.length)]!;
}

/** Runs one DDL statement in a savepoint; false (and nothing changed) when PostgreSQL refuses it. */
async function tryStatement(client: pg.ClientBase, sql: string): Promise<boolean> {
  await client.query("SAVEPOINT ambiqt_statement");
  try {
    await client.query(sql);
    await client.query("RELEASE SAVEPOINT ambiqt_statement");
    return true;
  } catch {
    await client.query("ROLLBACK TO SAVEPOINT ambiqt_statement");
    return false;
  }
}

/**
 * C, column synonyms: the column is renamed to one synonym (keeping its place and constraints) and copied into the
 * other, appended; then one of the two — at random, or always the copy when the column is a key — drifts. Which name
 * keeps the place and which drifts are independent coin flips, so neither marks the other as the copy.
 */
export async function applyColumnSynonyms(
  context: ChangeContext,
  change: Extract<AmbiqtChange, { type: "C" }>,
): Promise<string> {
  const { client, schema, random } = context;
  const columns = await columnsOf(context, change.table);
  const original = columns.find((column) => column.name === change.column);
  if (!original) throw new AmbiqtMaterialiseError(`no column ${change.table}.${change.column}`);
  for (const synonym of change.synonyms)
    if (synonym !== change.column && columns.some((column) => column.name === synonym))
      throw new AmbiqtMaterialiseError(`${change.table} already has a column ${synonym}`);
  const [kept, copy] = random() < 0.5 ? change.synonyms : ([change.synonyms[1], change.synonyms[0]] as const);
  const table = qualified(schema, change.table);
  if (kept !== change.column)
    await client.query(
      `ALTER TABLE ${table} RENAME COLUMN ${alwaysQuoteIdentifier(change.column)} TO ${alwaysQuoteIdentifier(kept)}`,
    );
  await client.query(`ALTER TABLE ${table} ADD COLUMN ${alwaysQuoteIdentifier(copy)} ${original.type}`);
  await client.query(`UPDATE ${table} SET ${alwaysQuoteIdentifier(copy)} = ${alwaysQuoteIdentifier(kept)}`);
  const drifted = original.key || random() < 0.5 ? copy : kept;
  const count = await driftColumn(client, {
    schema,
    table: change.table,
    column: drifted,
    type: original.type,
    share: context.share,
    existingValuesOnly: original.key,
    random,
  });
  await restoreKeyOrder(client, schema, change.table);
  return `${change.table}.${change.column} became ${kept} and ${copy}; ${count.changed} of ${count.of} values of ${drifted} drifted`;
}

/**
 * T, table synonyms: the table is renamed to one synonym and copied (`LIKE … INCLUDING ALL`: keys, defaults, NOT
 * NULL) into the other, with its foreign keys — its own, and every other table's that references it, to both copies.
 * One copy, at random, then drifts: some rows it never received (only rows nothing references, so every key still
 * holds) and drifted values in the columns the readings read.
 */
export async function applyTableSynonyms(
  context: ChangeContext,
  change: Extract<AmbiqtChange, { type: "T" }>,
): Promise<string> {
  const { client, schema, random } = context;
  const columns = await columnsOf(context, change.table);
  for (const synonym of change.synonyms)
    if (synonym !== change.table && (await tableExists(client, schema, synonym)))
      throw new AmbiqtMaterialiseError(`${schema} already has a table ${synonym}`);
  const incoming = (await incomingForeignKeys(client, schema, change.table)).filter(
    (key) => key.table !== change.table,
  );
  const outgoing = await outgoingForeignKeys(client, schema, change.table);
  const [kept, copy] = random() < 0.5 ? change.synonyms : ([change.synonyms[1], change.synonyms[0]] as const);
  if (kept !== change.table)
    await client.query(`ALTER TABLE ${qualified(schema, change.table)} RENAME TO ${alwaysQuoteIdentifier(kept)}`);
  await client.query(`CREATE TABLE ${qualified(schema, copy)} (LIKE ${qualified(schema, kept)} INCLUDING ALL)`);
  await client.query(`INSERT INTO ${qualified(schema, copy)} SELECT * FROM ${qualified(schema, kept)}`);
  const drifted = pick([kept, copy], random);
  const deleted = await deleteUnreferencedRows(client, {
    schema,
    table: drifted,
    keys: incoming,
    share: context.share / 2,
    random,
  });
  const read = new Set(context.golds.flatMap((gold) => queryReferences(gold).columns.map((column) => column.column)));
  const plain = columns.filter((column) => !column.key);
  const targets = plain.some((column) => read.has(column.name))
    ? plain.filter((column) => read.has(column.name))
    : plain;
  const changes: string[] = [];
  for (const column of targets) {
    const count = await driftColumn(client, {
      schema,
      table: drifted,
      column: column.name,
      type: column.type,
      share: context.share,
      random,
    });
    if (count.changed > 0) changes.push(`${count.changed} ${column.name}`);
  }
  await restoreKeyOrder(client, schema, drifted);
  for (const definition of outgoing)
    await tryStatement(client, `ALTER TABLE ${qualified(schema, copy)} ADD ${definition}`);
  for (const key of incoming) {
    const columnsList = key.columns.map(alwaysQuoteIdentifier).join(", ");
    const referenced = key.referencedColumns.map(alwaysQuoteIdentifier).join(", ");
    await tryStatement(
      client,
      `ALTER TABLE ${qualified(schema, key.table)} ADD FOREIGN KEY (${columnsList}) REFERENCES ${qualified(schema, copy)} (${referenced})`,
    );
  }
  return `${change.table} became ${kept} and ${copy}; ${drifted} lacks ${deleted.changed} of ${deleted.of} rows and has drifted values (${changes.join(", ") || "none"})`;
}

/**
 * J, a join through a split table: `<table>_<column>` (the key and the column, its primary key the key, a foreign key
 * to the table) beside the table, which keeps the column. Then one side, at random, drifts: the split table lacks some
 * rows and some of its values drifted, or the table's own column drifted (never when it is a key).
 */
export async function applySplitTable(
  context: ChangeContext,
  change: Extract<AmbiqtChange, { type: "J" }>,
): Promise<string> {
  const { client, schema, random } = context;
  const columns = await columnsOf(context, change.table);
  const column = columns.find((item) => item.name === change.column);
  if (!column || !columns.some((item) => item.name === change.key))
    throw new AmbiqtMaterialiseError(`no column ${change.table}.${change.column} or key ${change.key}`);
  if (await tableExists(client, schema, change.splitTable))
    throw new AmbiqtMaterialiseError(`${schema} already has a table ${change.splitTable}`);
  if (!queryReferences(context.golds[1]).tables.has(change.splitTable))
    throw new AmbiqtMaterialiseError(`the second reading does not read ${change.splitTable}`);
  const split = qualified(schema, change.splitTable);
  const key = alwaysQuoteIdentifier(change.key);
  await client.query(
    `CREATE TABLE ${split} AS SELECT ${key}, ${alwaysQuoteIdentifier(change.column)} FROM ${qualified(schema, change.table)}`,
  );
  if (await tryStatement(client, `ALTER TABLE ${split} ADD PRIMARY KEY (${key})`))
    await tryStatement(
      client,
      `ALTER TABLE ${split} ADD FOREIGN KEY (${key}) REFERENCES ${qualified(schema, change.table)} (${key})`,
    );
  // A key column of the table never drifts in place (its values identify or reference rows): the split side does.
  const onSplit = random() < 0.5 || column.key;
  const drifted = onSplit ? change.splitTable : change.table;
  const missing = onSplit
    ? await deleteUnreferencedRows(client, {
        schema,
        table: change.splitTable,
        keys: [],
        share: context.share / 2,
        random,
      })
    : undefined;
  const count = await driftColumn(client, {
    schema,
    table: drifted,
    column: change.column,
    type: column.type,
    share: context.share,
    existingValuesOnly: column.key,
    random,
  });
  await restoreKeyOrder(client, schema, drifted);
  return `${change.splitTable} (${change.key}, ${change.column}) beside ${change.table}; ${count.changed} of ${count.of} values of ${drifted}.${change.column} drifted${missing ? `, ${change.splitTable} lacks ${missing.changed} of ${missing.of} rows` : ""}`;
}
