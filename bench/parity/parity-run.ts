import { spawn, spawnSync } from "node:child_process";
import { closeSync, mkdirSync, openSync, readFileSync, statSync, writeSync } from "node:fs";
import path from "node:path";
import { compareOutputs, normalizeNames, type OutputDifference } from "./compare-outputs";

/** Where psql connects: PostgreSQL itself or the proxy in front of it (same user). */
export interface PsqlTarget {
  readonly host: string;
  readonly port: number;
  readonly user: string;
}

/**
 * How each SQL file reaches the server: `file` as pg_regress runs it (`psql -X -a -q` reading the file on stdin: psql
 * splits it into statements), `query` as one simple Query holding the whole file (`psql -X -q -c <file>`, as a driver
 * or `psql -c` sends a script).
 */
export type ParityMode = "file" | "query";

export interface ParityOptions {
  /** SQL files, run in this order against one database per target (later files see earlier files' objects). */
  readonly sqlFiles: readonly string[];
  readonly mode: ParityMode;
  readonly direct: PsqlTarget;
  readonly proxied: PsqlTarget;
  /** Database the two fresh databases are created from and dropped through (directly, never through the proxy). */
  readonly adminDatabase: string;
  /** psql variables (`-v name=value`) for both runs, e.g. pg_regress's abs_srcdir, libdir, dlsuffix. */
  readonly variables?: Readonly<Record<string, string>>;
  /** Outputs go to `<outputDirectory>/<mode>/{direct,proxied}/<file>.out`. */
  readonly outputDirectory: string;
  /** Seconds one psql run may take before it is killed (default 300). */
  readonly timeoutSeconds?: number;
  /** Called after each file (progress). */
  readonly onFile?: (result: FileParity) => void;
}

export interface FileParity {
  readonly file: string;
  readonly mode: ParityMode;
  /** Why the file was not compared (a query over psql's argument limit). */
  readonly skipped?: string;
  /** Undefined when the outputs are byte-identical (after the database names are made one). */
  readonly difference?: OutputDifference;
}

/** One argument may hold at most 128 KiB on Linux (MAX_ARG_STRLEN); leave room for the rest. */
const LARGEST_QUERY_ARGUMENT = 120 * 1024;

/**
 * pg_regress's database and client settings (src/test/regress/pg_regress.c), so outputs read like the suite's
 * expected files; both runs get the same, so parity does not depend on them.
 */
const DATABASE_SETTINGS = [
  "lc_messages TO 'C'",
  "lc_monetary TO 'C'",
  "lc_numeric TO 'C'",
  "lc_time TO 'C'",
  "bytea_output TO 'hex'",
  "timezone_abbreviations TO 'Default'",
];
const CLIENT_ENVIRONMENT = { PGTZ: "PST8PDT", PGDATESTYLE: "Postgres, MDY", PGSSLMODE: "disable", PGOPTIONS: "" };

/**
 * Runs each SQL file with psql directly and through the proxy, each target in a fresh database of its own (same-length
 * names, made one before comparing), and compares the outputs (stdout and stderr interleaved as written, and psql's
 * exit code) byte for byte.
 */
export async function runParity(options: ParityOptions): Promise<FileParity[]> {
  const tag = `nlq_parity_${process.pid}_${Date.now().toString(36)}_${options.mode}`;
  const databases = { direct: `${tag}_d`, proxied: `${tag}_p` };
  const directories = {
    direct: path.join(options.outputDirectory, options.mode, "direct"),
    proxied: path.join(options.outputDirectory, options.mode, "proxied"),
  };
  for (const directory of Object.values(directories)) mkdirSync(directory, { recursive: true });
  for (const database of Object.values(databases)) createDatabase(options.direct, options.adminDatabase, database);
  const results: FileParity[] = [];
  try {
    for (const file of options.sqlFiles) {
      const name = path.basename(file);
      let result: FileParity;
      if (options.mode === "query" && statSync(file).size > LARGEST_QUERY_ARGUMENT) {
        result = { file, mode: options.mode, skipped: `over ${LARGEST_QUERY_ARGUMENT} bytes for one psql -c argument` };
      } else {
        const outputs = {
          direct: path.join(directories.direct, `${name}.out`),
          proxied: path.join(directories.proxied, `${name}.out`),
        };
        await runPsql(options, options.direct, databases.direct, file, outputs.direct);
        await runPsql(options, options.proxied, databases.proxied, file, outputs.proxied);
        const names = [databases.direct, databases.proxied];
        const difference = compareOutputs(
          normalizeNames(readFileSync(outputs.direct), names, `${tag}_x`),
          normalizeNames(readFileSync(outputs.proxied), names, `${tag}_x`),
        );
        result = difference === undefined ? { file, mode: options.mode } : { file, mode: options.mode, difference };
      }
      results.push(result);
      options.onFile?.(result);
    }
  } finally {
    for (const database of Object.values(databases)) dropDatabase(options.direct, options.adminDatabase, database);
  }
  return results;
}

function connectionArguments(target: PsqlTarget, database: string): string[] {
  return ["-X", "-h", target.host, "-p", String(target.port), "-U", target.user, "-d", database];
}

/** Runs each statement in its own `-c` (one session; CREATE DATABASE may not share a query), stopping at an error. */
function adminCommands(target: PsqlTarget, adminDatabase: string, statements: readonly string[]): void {
  const run = spawnSync(
    "psql",
    [
      ...connectionArguments(target, adminDatabase),
      "-q",
      "-v",
      "ON_ERROR_STOP=1",
      ...statements.flatMap((sql) => ["-c", sql]),
    ],
    { encoding: "utf8", env: { ...process.env, ...CLIENT_ENVIRONMENT } },
  );
  if (run.error !== undefined) throw new Error(`psql could not run (${run.error.message}): is it installed?`);
  if (run.status !== 0) throw new Error(`psql ${statements.join("; ")} failed: ${run.stderr.trim()}`);
}

function createDatabase(target: PsqlTarget, adminDatabase: string, database: string): void {
  adminCommands(target, adminDatabase, [
    `CREATE DATABASE "${database}" TEMPLATE template0`,
    ...DATABASE_SETTINGS.map((setting) => `ALTER DATABASE "${database}" SET ${setting}`),
  ]);
}

function dropDatabase(target: PsqlTarget, adminDatabase: string, database: string): void {
  adminCommands(target, adminDatabase, [`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`]);
}

/** One psql run of `file` into `outputFile` (stdout and stderr in the order written), then its exit code. */
function runPsql(
  options: ParityOptions,
  target: PsqlTarget,
  database: string,
  file: string,
  outputFile: string,
): Promise<void> {
  const variables = Object.entries(options.variables ?? {}).flatMap(([name, value]) => ["-v", `${name}=${value}`]);
  const modeArguments = options.mode === "file" ? ["-a", "-q"] : ["-q", "-c", readFileSync(file, "utf8")];
  const output = openSync(outputFile, "w");
  const input = options.mode === "file" ? openSync(file, "r") : undefined;
  return new Promise<void>((resolve, reject) => {
    const child = spawn("psql", [...connectionArguments(target, database), ...variables, ...modeArguments], {
      cwd: path.dirname(file),
      env: { ...process.env, ...CLIENT_ENVIRONMENT },
      stdio: [input ?? "ignore", output, output],
    });
    if (input !== undefined) closeSync(input);
    const timeout = setTimeout(() => child.kill("SIGKILL"), (options.timeoutSeconds ?? 300) * 1000);
    child.once("error", (error) => {
      clearTimeout(timeout);
      closeSync(output);
      reject(new Error(`psql could not run (${error.message}): is it installed?`));
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timeout);
      writeSync(output, `\n[psql exit ${code ?? signal}]\n`);
      closeSync(output);
      resolve();
    });
  });
}
