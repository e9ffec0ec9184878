import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { EmbeddedPostgresError, EmbeddedPostgresInUseError } from "./embedded-postgres-error";
import { embeddedDatabaseUrl } from "./ensure-database";
import { resolvePostgresBinaries } from "./postgres-binaries";
import { isRunning, removeOwner, runningServer, serverLogFile, writeOwner } from "./server-status";
import { prepareDirectoryForUser, type ServerUser, serverUser } from "./server-user";

/** A real PostgreSQL server on a data directory: started by this process, or one it attached to. */
export interface EmbeddedPostgres {
  readonly directory: string;
  readonly host: string;
  readonly port: number;
  /** True when this process started the server (and `stop` stops it); false when it attached to a running one. */
  readonly owned: boolean;
  /** True when this start created the data directory (initdb). */
  readonly initialised: boolean;
  /** `postgresql://postgres@host:port/<database>`. */
  url(database: string): string;
  /** Fast shutdown (sessions end, a checkpoint is written) when owned; nothing when attached. Idempotent. */
  stop(): Promise<void>;
}

export interface StartEmbeddedPostgresOptions {
  /** The data directory, e.g. `$NLQ_HOME/.nlq/postgres`. Created (initdb) when it holds no cluster. */
  readonly directory: string;
  /** TCP port; 0 picks a free one. Only 127.0.0.1 is listened on; no Unix socket. */
  readonly port: number;
  /** Who starts it, recorded next to the data directory (e.g. "nlq start"). */
  readonly purpose: string;
  /**
   * When a live nlq process already runs a server on the directory: `attach` connects to it (its port wins; it
   * stops when its owner stops it), `refuse` throws `EmbeddedPostgresInUseError` (this process's own server is
   * always attached to). A server left by a process that died is stopped and restarted. Default `attach`.
   */
  readonly whenRunning?: "attach" | "refuse";
  /**
   * As root the server runs as `postgres`: ancestors of the data directory inside this one are made searchable
   * for it (`o+x`). Default: the directory's parent.
   */
  readonly grantBelow?: string;
  /** Progress lines for the user. Default: none. */
  readonly log?: (line: string) => void;
}

const host = "127.0.0.1";
const readyTimeoutMilliseconds = 60_000;
const stopTimeoutMilliseconds = 30_000;

/** Starts (initialising on first use) or attaches to the embedded PostgreSQL on `options.directory`. */
export async function startEmbeddedPostgres(options: StartEmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const directory = path.resolve(options.directory);
  const log = options.log ?? (() => {});
  const running = runningServer(directory);
  if (running?.owner !== undefined) {
    if (options.whenRunning === "refuse" && running.owner.processId !== process.pid) {
      throw new EmbeddedPostgresInUseError({
        directory,
        ownerProcessId: running.owner.processId,
        ownerPurpose: running.owner.purpose,
        port: running.port,
      });
    }
    return attached(directory, running.port);
  }
  if (running !== undefined) {
    log(`stopping the embedded PostgreSQL left running on ${directory} (process ${running.serverProcessId})…`);
    await stopServerProcess(running.serverProcessId, undefined, directory);
  }

  const binaries = await resolvePostgresBinaries();
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  const user = serverUser(directory);
  if (user !== undefined) prepareDirectoryForUser(directory, user, options.grantBelow ?? path.dirname(directory));
  const initialised = !existsSync(path.join(directory, "PG_VERSION"));
  if (initialised) {
    log(`creating the embedded PostgreSQL in ${directory} (first start only)…`);
    await runToCompletion(
      binaries.initdb,
      ["-D", directory, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-locale", "--no-instructions"],
      user,
      directory,
    );
  }
  const port = options.port === 0 ? await freePort() : options.port;
  const logDescriptor = openSync(serverLogFile(directory), "a");
  let server: ChildProcess;
  try {
    // Detached: Ctrl-C in the terminal does not reach it, so it stops after the proxy and web app, in order.
    server = spawn(binaries.postgres, ["-D", directory, "-p", String(port), "-h", host, "-k", ""], {
      detached: true,
      stdio: ["ignore", logDescriptor, logDescriptor],
      ...(user === undefined ? {} : { uid: user.uid, gid: user.gid }),
      env: { ...process.env, LC_MESSAGES: "C" },
    });
  } finally {
    closeSync(logDescriptor);
  }
  const exited = new Promise<void>((resolve) => server.once("exit", () => resolve()));
  server.once("error", () => {});
  server.unref();
  const serverProcessId = server.pid ?? -1;
  // Should this process end without stopping it (process.exit, an uncaught error), the server goes too.
  const onExit = () => {
    if (isRunning(serverProcessId)) process.kill(serverProcessId, "SIGINT");
  };
  process.once("exit", onExit);
  try {
    await waitUntilReady(embeddedDatabaseUrl(host, port, "postgres"), exited, directory);
  } catch (error) {
    process.off("exit", onExit);
    await stopServerProcess(serverProcessId, exited, directory).catch(() => undefined);
    throw error;
  }
  writeOwner(directory, { processId: process.pid, purpose: options.purpose, port });
  let stopping: Promise<void> | undefined;
  return {
    directory,
    host,
    port,
    owned: true,
    initialised,
    url: (database) => embeddedDatabaseUrl(host, port, database),
    stop() {
      stopping ??= (async () => {
        process.off("exit", onExit);
        try {
          await stopServerProcess(serverProcessId, exited, directory);
        } finally {
          removeOwner(directory);
        }
      })();
      return stopping;
    },
  };
}

function attached(directory: string, port: number): EmbeddedPostgres {
  return {
    directory,
    host,
    port,
    owned: false,
    initialised: false,
    url: (database) => embeddedDatabaseUrl(host, port, database),
    stop: async () => {},
  };
}

/** SIGINT = PostgreSQL's fast shutdown; SIGQUIT (immediate) should that not finish in time. */
async function stopServerProcess(
  serverProcessId: number,
  exited: Promise<void> | undefined,
  directory: string,
): Promise<void> {
  if (!isRunning(serverProcessId)) return;
  process.kill(serverProcessId, "SIGINT");
  const gone = exited ?? waitForProcessEnd(serverProcessId);
  const timeout = new AbortController();
  const finished = await Promise.race([
    gone.then(() => true),
    sleep(stopTimeoutMilliseconds, false, { signal: timeout.signal }).catch(() => false),
  ]);
  timeout.abort();
  if (finished) return;
  if (isRunning(serverProcessId)) process.kill(serverProcessId, "SIGQUIT");
  await gone.catch(() => undefined);
  throw new EmbeddedPostgresError(`the embedded PostgreSQL in ${directory} did not stop in time (SIGQUIT sent)`, {
    directory,
  });
}

async function waitForProcessEnd(processId: number): Promise<void> {
  while (isRunning(processId)) await sleep(100);
}

async function waitUntilReady(url: string, exited: Promise<void>, directory: string): Promise<void> {
  let hasExited = false;
  void exited.then(() => {
    hasExited = true;
  });
  const deadline = Date.now() + readyTimeoutMilliseconds;
  let lastError: unknown;
  while (Date.now() < deadline && !hasExited) {
    const client = new pg.Client({ connectionString: url });
    client.on("error", () => {});
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      lastError = error;
      await client.end().catch(() => undefined);
      await sleep(100);
    }
  }
  throw new EmbeddedPostgresError(
    `the embedded PostgreSQL in ${directory} ${hasExited ? "exited while starting" : "did not start in time"}: ` +
      logTail(directory),
    { directory, cause: lastError },
  );
}

/** Runs a program (initdb) as the server user; rejects with its output when it fails. */
async function runToCompletion(
  program: string,
  programArguments: readonly string[],
  user: ServerUser | undefined,
  directory: string,
): Promise<void> {
  const child = spawn(program, programArguments, {
    stdio: ["ignore", "pipe", "pipe"],
    ...(user === undefined ? {} : { uid: user.uid, gid: user.gid }),
    env: { ...process.env, LC_MESSAGES: "C" },
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
  });
  const code = await new Promise<number | string>((resolve) => {
    child.once("error", (error) => resolve(error.message));
    child.once("close", (exitCode, signal) => resolve(exitCode ?? signal ?? "unknown"));
  });
  if (code !== 0) {
    throw new EmbeddedPostgresError(
      `${path.basename(program)} failed (${code}) for ${directory}: ${output.trim().split("\n").slice(-5).join(" / ")}`,
      { directory },
    );
  }
}

function logTail(directory: string): string {
  try {
    const lines = readFileSync(serverLogFile(directory), "utf8").trim().split("\n");
    return lines.slice(-5).join(" / ");
  } catch {
    return "(no server log)";
  }
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, resolve);
  });
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
