/**
 * Differential parity of the nlq proxy: every SQL file run with psql (the same flags) directly against PostgreSQL and
 * through the proxy, the outputs compared byte for byte.
 *
 *   npm run bench:parity -- --sql-dir <dir> [--schedule <file>] [--regress] [--mode file|query|both]
 *                           [--url postgresql://postgres@127.0.0.1:5432/postgres] [--relay native|javascript]
 *                           [--proxy-port <port>] [--var name=value …] [--out <dir>] [--timeout-seconds 300]
 *
 * `--sql-dir` holds the `.sql` files, run in name order or in the order of a pg_regress `--schedule` (its `test:`
 * lines). PostgreSQL's own regression suite is `src/test/regress/sql` of a PostgreSQL source tree of the server's
 * major version (`git clone --depth 1 -b REL_15_STABLE https://git.postgresql.org/git/postgresql.git`), with
 * `--schedule src/test/regress/parallel_schedule --regress` (which sets the psql variables the suite reads:
 * abs_srcdir, abs_builddir, libdir, dlsuffix; pg_regress's HIDE_TABLEAM and HIDE_TOAST_COMPRESSION are always on).
 *
 * `--mode file` (default) runs each file as pg_regress does (`psql -X -a -q` with the file on stdin: psql splits it into
 * statements); `--mode query` sends each whole file as one simple Query (`psql -X -q -c`), as drivers and `psql -c`
 * send scripts; `both` does one then the other. Each run gets two fresh databases (created from template0 through
 * `--url`, with pg_regress's settings, dropped afterwards) whose names differ in one letter and are made one before
 * comparing. The proxy is started from this checkout (`apps/cli/bin/nlq.mjs proxy`, no model: a question would
 * fail, and show as a difference) with `--relay native` (default) or `javascript`, unless `--proxy-port` names a
 * running proxy in front of the same server. Outputs stay in `--out` (default a new temporary directory) for `diff`.
 * Exit code 1 when any file differs.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { freePort, waitReady } from "../proxy/benchmark-targets";
import { type FileParity, type ParityMode, type PsqlTarget, runParity } from "./parity-run";
import { scheduledTests } from "./regress-schedule";

const repository = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

const { values } = parseArgs({
  options: {
    "sql-dir": { type: "string" },
    schedule: { type: "string" },
    regress: { type: "boolean", default: false },
    mode: { type: "string", default: "file" },
    url: {
      type: "string",
      default: process.env.NLQ_TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres",
    },
    relay: { type: "string", default: "native" },
    "proxy-port": { type: "string" },
    var: { type: "string", multiple: true, default: [] },
    out: { type: "string" },
    "timeout-seconds": { type: "string", default: "300" },
  },
});

function usage(message: string): never {
  process.stderr.write(`run-parity: ${message}\n`);
  process.exit(2);
}

const sqlDirectory = values["sql-dir"] ?? usage("--sql-dir <dir> is required");
const modes: ParityMode[] =
  values.mode === "both" ? ["file", "query"] : values.mode === "file" || values.mode === "query" ? [values.mode] : [];
if (modes.length === 0) usage(`--mode is file, query or both, not ${values.mode}`);
if (values.relay !== "native" && values.relay !== "javascript") usage("--relay is native or javascript");

const server = new URL(values.url);
const direct: PsqlTarget = {
  host: server.hostname,
  port: Number(server.port || 5432),
  user: decodeURIComponent(server.username || "postgres"),
};
const adminDatabase = decodeURIComponent(server.pathname.slice(1) || "postgres");

const sqlFiles = (
  values.schedule === undefined
    ? readdirSync(sqlDirectory)
        .filter((name) => name.endsWith(".sql"))
        .sort()
    : scheduledTests(readFileSync(values.schedule, "utf8")).map((test) => `${test}.sql`)
).map((name) => path.resolve(sqlDirectory, name));
if (sqlFiles.length === 0) usage(`no .sql files in ${sqlDirectory}`);

const variables: Record<string, string> = { HIDE_TABLEAM: "on", HIDE_TOAST_COMPRESSION: "on" };
if (values.regress) {
  const regressDirectory = path.resolve(sqlDirectory, "..");
  Object.assign(variables, {
    abs_srcdir: regressDirectory,
    abs_builddir: regressDirectory,
    libdir: pgConfig("--pkglibdir"),
    dlsuffix: ".so",
  });
}
for (const assignment of values.var) {
  const equals = assignment.indexOf("=");
  if (equals <= 0) usage(`--var takes name=value, not ${assignment}`);
  variables[assignment.slice(0, equals)] = assignment.slice(equals + 1);
}

function pgConfig(option: string): string {
  const run = spawnSync("pg_config", [option], { encoding: "utf8" });
  if (run.status !== 0) usage(`pg_config ${option} failed: install PostgreSQL's development files, or pass --var`);
  return run.stdout.trim();
}

/** Starts the proxy of this checkout on a free port (its log goes to the output directory). */
async function startProxy(logFile: string): Promise<{ port: number; stop(): Promise<void> }> {
  const port = await freePort();
  const home = mkdtempSync(path.join(tmpdir(), "nlq-parity-proxy-"));
  const child = spawn(
    process.execPath,
    [
      path.join(repository, "apps/cli/bin/nlq.mjs"),
      "proxy",
      "--upstream",
      `postgresql://${direct.host}:${direct.port}`,
      "--listen",
      `127.0.0.1:${port}`,
    ],
    {
      cwd: repository,
      env: {
        ...process.env,
        NLQ_HOME: home,
        NLQ_MODEL: "",
        DATABASE_URL: "",
        NLQ_NATIVE_RELAY: values.relay === "native" ? "on" : "off",
      },
      stdio: ["ignore", "ignore", openSync(logFile, "w")],
    },
  );
  const stop = () =>
    new Promise<void>((resolve) => {
      rmSync(home, { recursive: true, force: true });
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  try {
    await waitReady(port);
    // The proxy logs which relay it uses when it starts listening: compare through the one asked for.
    if (!readFileSync(logFile, "utf8").includes(`"relay":"${values.relay}"`)) {
      throw new Error(`the proxy does not use the ${values.relay} relay (see ${logFile})`);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { port, stop };
}

const outputDirectory = values.out ?? mkdtempSync(path.join(tmpdir(), "nlq-parity-"));
mkdirSync(outputDirectory, { recursive: true });
const proxy =
  values["proxy-port"] === undefined
    ? await startProxy(path.join(outputDirectory, "proxy.log"))
    : { port: Number(values["proxy-port"]), stop: async () => {} };

const started = Date.now();
const results: FileParity[] = [];
try {
  for (const mode of modes) {
    results.push(
      ...(await runParity({
        sqlFiles,
        mode,
        direct,
        proxied: { ...direct, port: proxy.port },
        adminDatabase,
        variables,
        outputDirectory,
        timeoutSeconds: Number(values["timeout-seconds"]),
        onFile: (result) => {
          const name = path.basename(result.file);
          const status =
            result.skipped !== undefined
              ? `skipped (${result.skipped})`
              : result.difference === undefined
                ? "identical"
                : `DIFFERS at line ${result.difference.line}\n    direct:  ${JSON.stringify(result.difference.direct)}\n    proxied: ${JSON.stringify(result.difference.proxied)}`;
          process.stdout.write(`${mode.padEnd(5)} ${name}: ${status}\n`);
        },
      })),
    );
  }
} finally {
  await proxy.stop();
}

const differing = results.filter((result) => result.difference !== undefined);
const skipped = results.filter((result) => result.skipped !== undefined);
const summary = {
  files: sqlFiles.length,
  modes,
  relay: values["proxy-port"] === undefined ? values.relay : "external",
  compared: results.length - skipped.length,
  identical: results.length - skipped.length - differing.length,
  differing: differing.map((result) => `${result.mode} ${path.basename(result.file)}`),
  skipped: skipped.map((result) => `${result.mode} ${path.basename(result.file)}`),
  seconds: Math.round((Date.now() - started) / 1000),
  outputDirectory,
};
writeFileSync(path.join(outputDirectory, "summary.json"), `${JSON.stringify(summary, null, 2)}\n`);
process.stdout.write(
  `\n${summary.identical} of ${summary.compared} runs byte-identical (${summary.files} files × ${modes.join(", ")}; ` +
    `${skipped.length} skipped; relay ${summary.relay}; ${summary.seconds} s). Outputs: ${outputDirectory}\n`,
);
process.exitCode = differing.length > 0 ? 1 : 0;
