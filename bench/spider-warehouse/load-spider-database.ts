import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseCsv } from "@nlq/adapters";
import { alwaysQuoteIdentifier } from "@nlq/engine";
import type pg from "pg";
import { normalizeIntegralDecimal, type TypeWidening, widenColumnType } from "./infer-type-widenings";
import { parseMysqlDdl } from "./parse-mysql-ddl";
import { columnKey, type PostgresSchemaPlan, type PostgresTable, planPostgresSchema } from "./render-postgres-ddl";

/** A CSV row PostgreSQL refused (bad value, NOT NULL or key violation) or that had the wrong field count. */
export type RejectedRow = { readonly table: string; readonly line: number; readonly reason: string };

export type SpiderDatabaseReport = {
  readonly database: string;
  readonly schema: string;
  /** `loaded`, or `skipped` when the schema already existed and `replace` was off. */
  readonly status: "loaded" | "skipped";
  readonly tables: number;
  readonly columns: number;
  readonly rows: number;
  readonly rejectedRows: RejectedRow[];
  /** Tables whose CSV file is absent (listed in MISSING_BLOBS.txt); they exist but are empty. */
  readonly missingFiles: string[];
  /** Empty CSV fields in non-text columns, loaded as NULL. */
  readonly emptyAsNull: number;
  /** Declared types widened to hold the data (INTEGER holding fractions, VARCHAR(n) holding longer text). */
  readonly typeWidenings: TypeWidening[];
  readonly foreignKeysAdded: number;
  readonly foreignKeysSkipped: { readonly foreignKey: string; readonly reason: string }[];
  readonly warnings: string[];
  readonly milliseconds: number;
};

export type LoadSpiderDatabaseOptions = {
  /** A connected client; the database loads in one transaction on it. */
  readonly client: pg.ClientBase;
  /** Folder `databases/<database>` with `schema.sql` and `data/<table>.csv`. */
  readonly databaseDirectory: string;
  /** Drop the schema first if it exists. Default: false (an existing schema is left alone and reported skipped). */
  readonly replace?: boolean;
  /** Maximum rows per INSERT statement. Default: 1,000 (fewer for wide tables: at most 30,000 parameters). */
  readonly batchRows?: number;
};

/**
 * Loads one Spider database into the PostgreSQL schema of the same (lower-cased) name, in one
 * transaction: CREATE SCHEMA, tables with primary and unique keys, rows by batched parameterised
 * INSERT (a failing batch is bisected under savepoints so only the offending rows are rejected and
 * reported), indexes, then foreign keys one by one (a key the data violates is skipped and reported);
 * finally ANALYZE.
 */
export async function loadSpiderDatabase(options: LoadSpiderDatabaseOptions): Promise<SpiderDatabaseReport> {
  const started = performance.now();
  const { client } = options;
  const database = path.basename(options.databaseDirectory);
  const mysql = parseMysqlDdl(readFileSync(path.join(options.databaseDirectory, "schema.sql"), "utf8"));
  const declared = planPostgresSchema(database.toLowerCase(), mysql.tables);
  const csvFile = (table: PostgresTable) => path.join(options.databaseDirectory, "data", `${table.sourceName}.csv`);
  const missingFiles = declared.tables.filter((table) => !existsSync(csvFile(table))).map((table) => table.sourceName);

  // An existing schema is complete (it loaded in one transaction): skip it before reading any CSV.
  const exists = await client.query("SELECT 1 FROM pg_namespace WHERE nspname = $1", [declared.schema]);
  if (exists.rowCount! > 0 && options.replace !== true) {
    return {
      ...summarizePlan(database, declared, mysql.unparsed),
      status: "skipped",
      rows: 0,
      rejectedRows: [],
      missingFiles,
      emptyAsNull: 0,
      typeWidenings: [],
      foreignKeysAdded: 0,
      foreignKeysSkipped: [],
      milliseconds: performance.now() - started,
    };
  }

  // Read every CSV before creating tables: the data decides whether a declared type must be widened.
  const data = new Map<string, TableRows>();
  for (const table of declared.tables) {
    if (!missingFiles.includes(table.sourceName)) {
      data.set(table.sourceName, readTableRows(table, readFileSync(csvFile(table), "utf8")));
    }
  }
  const typeWidenings: TypeWidening[] = [];
  const typeOverrides = new Map<string, string>();
  for (const table of declared.tables) {
    const rows = data.get(table.sourceName);
    if (rows === undefined) continue;
    table.columns.forEach((column, position) => {
      const widening = widenColumnType(column.type, columnValues(rows, position));
      if (widening === undefined) return;
      typeOverrides.set(columnKey(table.sourceName, column.sourceName), widening.to);
      typeWidenings.push({ column: `${table.name}.${column.name}`, from: column.type, ...widening });
    });
  }
  const plan = typeOverrides.size === 0 ? declared : planPostgresSchema(declared.schema, mysql.tables, typeOverrides);

  const rejectedRows: RejectedRow[] = [];
  const foreignKeysSkipped: { foreignKey: string; reason: string }[] = [];
  let rows = 0;
  let emptyAsNull = 0;
  let foreignKeysAdded = 0;
  await client.query("BEGIN");
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${alwaysQuoteIdentifier(plan.schema)} CASCADE`);
    await client.query(`CREATE SCHEMA ${alwaysQuoteIdentifier(plan.schema)}`);
    for (const table of plan.tables) await client.query(table.createStatement);
    for (const table of plan.tables) {
      const tableRows = data.get(table.sourceName);
      if (tableRows === undefined) continue;
      emptyAsNull += tableRows.emptyAsNull;
      rejectedRows.push(...tableRows.rejected);
      const loaded = await insertRows(client, plan.schema, table, tableRows, options.batchRows ?? 1_000);
      rows += loaded.rows;
      rejectedRows.push(...loaded.rejected);
    }
    for (const table of plan.tables) for (const statement of table.indexStatements) await client.query(statement);
    for (const table of plan.tables) {
      for (const foreignKey of table.foreignKeys) {
        if (foreignKey.statement === undefined) {
          foreignKeysSkipped.push({ foreignKey: foreignKey.description, reason: foreignKey.problem ?? "unknown" });
          continue;
        }
        const failure = await underSavepoint(client, () => client.query(foreignKey.statement!));
        if (failure === undefined) foreignKeysAdded++;
        else foreignKeysSkipped.push({ foreignKey: foreignKey.description, reason: failure });
      }
    }
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
  // Planner statistics (and pg_stats, which catalog introspection may read) for the fresh tables.
  for (const table of plan.tables) {
    await client.query(`ANALYZE ${alwaysQuoteIdentifier(plan.schema)}.${alwaysQuoteIdentifier(table.name)}`);
  }
  return {
    ...summarizePlan(database, plan, mysql.unparsed),
    status: "loaded",
    rows,
    rejectedRows,
    missingFiles,
    emptyAsNull,
    typeWidenings,
    foreignKeysAdded,
    foreignKeysSkipped,
    milliseconds: performance.now() - started,
  };
}

/** The report fields that follow from the schema plan alone. */
function summarizePlan(database: string, plan: PostgresSchemaPlan, unparsed: readonly string[]) {
  return {
    database,
    schema: plan.schema,
    tables: plan.tables.length,
    columns: plan.tables.reduce((sum, table) => sum + table.columns.length, 0),
    warnings: [...unparsed.map((text) => `not understood: ${text}`), ...plan.warnings],
  };
}

type Row = { line: number; values: (string | null)[] };

/** A table's CSV parsed and mapped to its columns: `columnPositions[i]` is the table column of CSV field i. */
type TableRows = { columnPositions: number[]; rows: Row[]; rejected: RejectedRow[]; emptyAsNull: number };

/** Parses a table's CSV: unquoted `NULL` is SQL NULL; an unquoted empty field is NULL unless the column is text. */
function readTableRows(table: PostgresTable, csv: string): TableRows {
  const records = parseCsv(csv);
  const header = records[0]?.fields.map((field) => field.text.trim().toLowerCase()) ?? [];
  const positionByName = new Map(table.columns.map((column, position) => [column.sourceName.toLowerCase(), position]));
  const columnPositions = header.map((name) => positionByName.get(name) ?? -1);
  const unknown = header.filter((_, position) => columnPositions[position] === -1);
  const rejected: RejectedRow[] = [];
  const rows: Row[] = [];
  let emptyAsNull = 0;
  for (const record of records.slice(1)) {
    if (unknown.length > 0) {
      rejected.push({
        table: table.name,
        line: record.line,
        reason: `CSV header has unknown column(s) ${unknown.join(", ")}`,
      });
      continue;
    }
    if (record.fields.length !== header.length) {
      rejected.push({
        table: table.name,
        line: record.line,
        reason: `${record.fields.length} fields, expected ${header.length}`,
      });
      continue;
    }
    const values = record.fields.map((field, position) => {
      if (!field.quoted && field.text === "NULL") return null;
      if (!field.quoted && field.text === "" && !table.columns[columnPositions[position]!]!.textual) {
        emptyAsNull++;
        return null;
      }
      return field.text;
    });
    rows.push({ line: record.line, values });
  }
  return { columnPositions, rows, rejected, emptyAsNull };
}

function* columnValues(tableRows: TableRows, columnPosition: number): Generator<string | null> {
  const field = tableRows.columnPositions.indexOf(columnPosition);
  if (field === -1) return;
  for (const row of tableRows.rows) yield row.values[field]!;
}

/** Inserts rows in batched parameterised INSERTs; a failing batch is bisected under savepoints down to the bad rows. */
async function insertRows(
  client: pg.ClientBase,
  schema: string,
  table: PostgresTable,
  tableRows: TableRows,
  batchRows: number,
): Promise<{ rows: number; rejected: RejectedRow[] }> {
  const rejected: RejectedRow[] = [];
  const columns = tableRows.columnPositions.map((position) => table.columns[position]!);
  const integral = columns.map((column) => /^(smallint|integer|bigint)$/.test(column.type));
  const rows = tableRows.rows.map((row) => ({
    line: row.line,
    values: row.values.map((value, field) =>
      value !== null && integral[field] ? normalizeIntegralDecimal(value.trim()) : value,
    ),
  }));
  const target = `${alwaysQuoteIdentifier(schema)}.${alwaysQuoteIdentifier(table.name)}`;
  const columnList = columns.map((column) => alwaysQuoteIdentifier(column.name)).join(", ");
  const perStatement = Math.max(1, Math.min(batchRows, Math.floor(30_000 / Math.max(1, columns.length))));
  let inserted = 0;

  const insert = async (batch: Row[]) => {
    const parameters: (string | null)[] = [];
    const tuples = batch.map((row) => {
      const placeholders = row.values.map((value) => {
        parameters.push(value);
        return `$${parameters.length}`;
      });
      return `(${placeholders.join(", ")})`;
    });
    await client.query(`INSERT INTO ${target} (${columnList}) VALUES ${tuples.join(", ")}`, parameters);
  };
  const insertOrBisect = async (batch: Row[]): Promise<void> => {
    const failure = await underSavepoint(client, () => insert(batch));
    if (failure === undefined) {
      inserted += batch.length;
      return;
    }
    if (batch.length === 1) {
      rejected.push({ table: table.name, line: batch[0]!.line, reason: failure });
      return;
    }
    const middle = Math.ceil(batch.length / 2);
    await insertOrBisect(batch.slice(0, middle));
    await insertOrBisect(batch.slice(middle));
  };
  if (columns.length > 0) {
    for (let start = 0; start < rows.length; start += perStatement) {
      await insertOrBisect(rows.slice(start, start + perStatement));
    }
  }
  return { rows: inserted, rejected };
}

/** Runs `work` under a savepoint; returns undefined on success or the error text after rolling back to it. */
async function underSavepoint(client: pg.ClientBase, work: () => Promise<unknown>): Promise<string | undefined> {
  await client.query("SAVEPOINT spider_load");
  try {
    await work();
    await client.query("RELEASE SAVEPOINT spider_load");
    return undefined;
  } catch (error) {
    await client.query("ROLLBACK TO SAVEPOINT spider_load");
    await client.query("RELEASE SAVEPOINT spider_load");
    const code = (error as { code?: string }).code;
    const message = error instanceof Error ? error.message : String(error);
    return code === undefined ? message : `${code} ${message}`;
  }
}
