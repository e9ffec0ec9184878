/**
 * Loads the Spider warehouse (157 MySQL-dialect Spider databases with CSV data) into one PostgreSQL
 * database, one schema per Spider database.
 *
 *   npx tsx bench/spider-warehouse/load-spider-warehouse.ts --url postgresql://postgres@127.0.0.1:5432/spider_warehouse \
 *     [--data ../shared/data/spider-warehouse] [--replace] [--jobs 2] [--only db1,db2] [--report report.json]
 *
 * The target database is created when it does not exist. Without `--replace`, schemas that already
 * exist are left alone (each database loads in one transaction, so an existing schema is complete).
 */
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import pg from "pg";
import { loadSpiderDatabase, type SpiderDatabaseReport } from "./load-spider-database";

export type LoadSpiderWarehouseOptions = {
  /** PostgreSQL URL of the target database. Required. */
  readonly url: string;
  /** The spider-warehouse data folder (holding `databases/`). Default: `../shared/data/spider-warehouse`. */
  readonly dataDirectory?: string;
  /** Drop and reload schemas that already exist. Default: false. */
  readonly replace?: boolean;
  /** Databases loaded in parallel (one connection each). Default: 2. */
  readonly jobs?: number;
  /** Load only these Spider databases (directory names). Default: all. */
  readonly only?: readonly string[];
  /** Progress lines. Default: none. */
  readonly log?: (line: string) => void;
};

export type SpiderWarehouseSummary = {
  readonly databases: SpiderDatabaseReport[];
  readonly schemasLoaded: number;
  readonly schemasSkipped: number;
  readonly tables: number;
  /** Columns counted in information_schema.columns over the loaded schemas. */
  readonly columns: number;
  readonly rows: number;
  readonly rejectedRows: number;
  readonly missingFiles: string[];
  readonly emptyAsNull: number;
  readonly typeWidenings: number;
  readonly foreignKeysAdded: number;
  readonly foreignKeysSkipped: number;
  readonly milliseconds: number;
};

export const defaultSpiderWarehouseDirectory = "../shared/data/spider-warehouse";

export async function loadSpiderWarehouse(options: LoadSpiderWarehouseOptions): Promise<SpiderWarehouseSummary> {
  const started = performance.now();
  const log = options.log ?? (() => undefined);
  const databasesDirectory = path.join(options.dataDirectory ?? defaultSpiderWarehouseDirectory, "databases");
  if (!existsSync(databasesDirectory)) throw new Error(`Spider warehouse data not found: ${databasesDirectory}`);
  const names = readdirSync(databasesDirectory)
    .filter((name) => existsSync(path.join(databasesDirectory, name, "schema.sql")))
    .filter((name) => options.only === undefined || options.only.includes(name))
    .sort();
  const unknown = (options.only ?? []).filter((name) => !names.includes(name));
  if (unknown.length > 0) throw new Error(`unknown Spider database(s): ${unknown.join(", ")}`);
  const jobs = options.jobs ?? 2;
  if (!Number.isInteger(jobs) || jobs < 1) throw new Error(`--jobs must be a positive integer, got ${options.jobs}`);
  await createDatabaseIfMissing(options.url);

  const reports: SpiderDatabaseReport[] = [];
  let next = 0;
  const worker = async () => {
    const client = new pg.Client({ connectionString: options.url });
    await client.connect();
    try {
      while (next < names.length) {
        const name = names[next++]!;
        const report = await loadSpiderDatabase({
          client,
          databaseDirectory: path.join(databasesDirectory, name),
          replace: options.replace,
        });
        reports.push(report);
        log(progressLine(reports.length, names.length, report));
      }
    } finally {
      await client.end();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, names.length)) }, worker));
  reports.sort((left, right) => left.database.localeCompare(right.database));

  const client = new pg.Client({ connectionString: options.url });
  await client.connect();
  let columns = 0;
  try {
    const counted = await client.query<{ count: string }>(
      "SELECT count(*) AS count FROM information_schema.columns WHERE table_schema = ANY($1)",
      [reports.map((report) => report.schema)],
    );
    columns = Number(counted.rows[0]!.count);
  } finally {
    await client.end();
  }
  const sum = (pick: (report: SpiderDatabaseReport) => number) =>
    reports.reduce((total, report) => total + pick(report), 0);
  return {
    databases: reports,
    schemasLoaded: reports.filter((report) => report.status === "loaded").length,
    schemasSkipped: reports.filter((report) => report.status === "skipped").length,
    tables: sum((report) => report.tables),
    columns,
    rows: sum((report) => report.rows),
    rejectedRows: sum((report) => report.rejectedRows.length),
    missingFiles: reports.flatMap((report) => report.missingFiles.map((table) => `${report.database}.${table}`)),
    emptyAsNull: sum((report) => report.emptyAsNull),
    typeWidenings: sum((report) => report.typeWidenings.length),
    foreignKeysAdded: sum((report) => report.foreignKeysAdded),
    foreignKeysSkipped: sum((report) => report.foreignKeysSkipped.length),
    milliseconds: performance.now() - started,
  };
}

function progressLine(done: number, total: number, report: SpiderDatabaseReport): string {
  const counter = `[${String(done).padStart(String(total).length)}/${total}]`;
  if (report.status === "skipped") return `${counter} ${report.schema}: exists, skipped (use --replace to reload)`;
  const notes = [
    report.rejectedRows.length > 0 ? `${report.rejectedRows.length} rows rejected` : "",
    report.typeWidenings.length > 0 ? `${report.typeWidenings.length} types widened` : "",
    report.missingFiles.length > 0 ? `missing CSV: ${report.missingFiles.join(", ")}` : "",
    report.foreignKeysSkipped.length > 0 ? `${report.foreignKeysSkipped.length} foreign keys skipped` : "",
  ].filter((note) => note !== "");
  return `${counter} ${report.schema}: ${report.tables} tables, ${report.columns} columns, ${report.rows} rows, ${report.foreignKeysAdded} foreign keys (${Math.round(report.milliseconds)} ms)${notes.length > 0 ? ` — ${notes.join("; ")}` : ""}`;
}

/** Connects to the `postgres` database of the same server and creates the target database if needed. */
async function createDatabaseIfMissing(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (name === "") return;
  const maintenance = new URL(url);
  maintenance.pathname = "/postgres";
  const client = new pg.Client({ connectionString: maintenance.toString() });
  await client.connect();
  try {
    const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } catch (error) {
    if ((error as { code?: string }).code !== "42P04") throw error;
  } finally {
    await client.end();
  }
}

/** Human-readable summary printed by the command line. */
export function formatSummary(summary: SpiderWarehouseSummary): string {
  const lines = [
    `schemas: ${summary.schemasLoaded} loaded, ${summary.schemasSkipped} skipped (already present)`,
    `tables: ${summary.tables}   columns (information_schema): ${summary.columns}   rows: ${summary.rows}`,
    `rejected rows: ${summary.rejectedRows}   empty non-text fields loaded as NULL: ${summary.emptyAsNull}`,
    `missing CSV files (tables left empty): ${summary.missingFiles.length}${summary.missingFiles.length > 0 ? ` — ${summary.missingFiles.join(", ")}` : ""}`,
    `types widened to hold the data: ${summary.typeWidenings}`,
    `foreign keys: ${summary.foreignKeysAdded} added, ${summary.foreignKeysSkipped} skipped`,
  ];
  for (const report of summary.databases) {
    for (const rejected of report.rejectedRows.slice(0, 5)) {
      lines.push(`  rejected ${report.schema}.${rejected.table} line ${rejected.line}: ${rejected.reason}`);
    }
    if (report.rejectedRows.length > 5)
      lines.push(`  … and ${report.rejectedRows.length - 5} more rejected rows in ${report.schema}`);
    for (const skipped of report.foreignKeysSkipped) {
      lines.push(`  skipped foreign key ${report.schema}.${skipped.foreignKey}: ${skipped.reason}`);
    }
    for (const widening of report.typeWidenings) {
      lines.push(
        `  widened ${report.schema}.${widening.column}: ${widening.from} → ${widening.to} (${widening.reason})`,
      );
    }
    for (const warning of report.warnings) lines.push(`  warning ${report.schema}: ${warning}`);
  }
  lines.push(`elapsed: ${(summary.milliseconds / 1000).toFixed(1)} s`);
  return lines.join("\n");
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      url: { type: "string" },
      data: { type: "string", default: defaultSpiderWarehouseDirectory },
      replace: { type: "boolean", default: false },
      jobs: { type: "string", default: "2" },
      only: { type: "string" },
      report: { type: "string" },
    },
  });
  if (values.url === undefined) {
    console.error(
      "usage: load-spider-warehouse.ts --url postgresql://… [--data dir] [--replace] [--jobs n] [--only a,b] [--report file.json]",
    );
    process.exitCode = 2;
    return;
  }
  const summary = await loadSpiderWarehouse({
    url: values.url,
    dataDirectory: values.data,
    replace: values.replace,
    jobs: Number(values.jobs),
    only: values.only?.split(",").map((name) => name.trim()),
    log: (line) => console.log(line),
  });
  console.log(formatSummary(summary));
  if (values.report !== undefined) writeFileSync(values.report, JSON.stringify(summary, null, 2));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
