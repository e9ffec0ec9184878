import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { EmbeddedPostgresError, EmbeddedPostgresInUseError } from "./embedded-postgres-error";
import { embeddedDatabaseUrl } from "./ensure-database";
import { resolvePostgresBinaries } from "./postgres-binaries";
import {
  hasEmbeddedHostBasedAuthentication,
  setPasswordStatement,
  writeEmbeddedHostBasedAuthentication,
} from "./server-authentication";
import { ensureServerPassword, type ServerPassword } from "./server-password";
import { isRunning, runningServer, serverLogFile } from "./server-status";
import { prepareDirectoryForUser, type ServerUser, serverUser } from "./server-user";
import {
  lifetimeLockFile,
  liveUsers,
  registerUser,
  tryLifetimeLock,
  unregisterUser,
  withLifetimeLock,
} from "./server-users";

/**
 * A real PostgreSQL server on a data directory, shared by every nlq process using the directory: it runs until the
 * last of them leaves (`stop`), whichever started it.
 */
export interface EmbeddedPostgres {
  readonly directory: string;
  readonly host: string;
  readonly port: number;
  /** True when this process started the server; false when it joined one already running. */
  readonly owned: boolean;
  /** True when this start created the data directory (initdb). */
  readonly initialised: boolean;
  /** The superuser (`postgres`) and its generated password, kept in `<directory>.pgpass` (mode 0600). */
  readonly password: ServerPassword;
  /** `postgresql://postgres:<password>@host:port/<database>`. */
  url(database: string): string;
  /**
   * Leaves the server: when no other live nlq process uses it, it is stopped (fast shutdown: sessions end, a
   * checkpoint is written). Idempotent.
   */
  stop(): Promise<void>;
}

export interface StartEmbeddedPostgresOptions {
  /** The data directory, e.g. `$NLQ_HOME/.nlq/postgres`. Created (initdb) when it holds no cluster. */
  readonly directory: string;
  /** TCP port; 0 picks a free one. Only 127.0.0.1 is listened on; no Unix socket. */
  readonly port: number;
  /** Who uses it, recorded next to the data directory (e.g. "nlq start"). */
  readonly purpose: string;
  /**
   * When live nlq processes already use a server on the directory: `attach` joins it (its port wins),
   * `refuse` throws `EmbeddedPostgresInUseError` (unless the only user is this process). A server whose users all
   * died is stopped and restarted. Default `attach`.
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

/** How many handles of this process use each directory (one registration file per process). */
const handlesInThisProcess = new Map<string, { count: number; onExit: () => void }>();

/**
 * Starts (initialising on first use) or joins the embedded PostgreSQL on `options.directory`. Every connection
 * authenticates with SCRAM-SHA-256 as `postgres` with the password of `<directory>.pgpass`, generated on first use.
 */
export async function startEmbeddedPostgres(options: StartEmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const directory = path.resolve(options.directory);
  mkdirSync(path.dirname(directory), { recursive: true });
  return withLifetimeLock(directory, async () => {
    const running = runningServer(directory);
    if (running !== undefined && running.users.length > 0) {
      const other = running.users.find((user) => user.processId !== process.pid);
      if (options.whenRunning === "refuse" && other !== undefined) {
        throw new EmbeddedPostgresInUseError({
          directory,
          ownerProcessId: other.processId,
          ownerPurpose: other.purpose,
          port: running.port,
        });
      }
      const password = ensureServerPassword(directory);
      if (password.created) {
        rmSync(password.file, { force: true });
        throw new EmbeddedPostgresError(
          `the password file ${password.file} was removed while the embedded PostgreSQL runs (used by process ` +
            `${running.users[0]?.processId}): stop the nlq processes using it, and a new password is set at the next start`,
          { directory },
        );
      }
      join(directory, options.purpose);
      return handle({ directory, port: running.port, owned: false, initialised: false, password });
    }
    return startServer(directory, options, running?.serverProcessId);
  });
}

async function startServer(
  directory: string,
  options: StartEmbeddedPostgresOptions,
  leftoverProcessId: number | undefined,
): Promise<EmbeddedPostgres> {
  const log = options.log ?? (() => {});
  if (leftoverProcessId !== undefined) {
    log(`stopping the embedded PostgreSQL left running on ${directory} (process ${leftoverProcessId})…`);
    await stopServerProcess(leftoverProcessId, undefined, directory);
  }
  const binaries = await resolvePostgresBinaries();
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  const user = serverUser(directory);
  if (user !== undefined) prepareDirectoryForUser(directory, user, options.grantBelow ?? path.dirname(directory));
  const initialised = !existsSync(path.join(directory, "PG_VERSION"));
  if (initialised) {
    log(`creating the embedded PostgreSQL in ${directory} (first start only)…`);
    // `reject` until the password is set below: no connection is ever accepted without it.
    await runToCompletion(
      binaries.initdb,
      ["-D", directory, "-U", "postgres", "-A", "reject", "-E", "UTF8", "--no-locale", "--no-instructions"],
      user,
      directory,
    );
  }
  const password = ensureServerPassword(directory);
  const trustedBefore = !hasEmbeddedHostBasedAuthentication(directory);
  if (initialised || password.created || trustedBefore) {
    // A new cluster, a new password file, or a data directory of an older nlq (`trust`): set the password in
    // single-user mode (no server runs, no connection is accepted meanwhile), then require it.
    if (!initialised) log(`setting the embedded PostgreSQL's password (kept in ${password.file})…`);
    await runToCompletion(
      binaries.postgres,
      ["--single", "-D", directory, "-c", "log_statement=none", "postgres"],
      user,
      directory,
      setPasswordStatement(password.password),
    );
    writeEmbeddedHostBasedAuthentication(directory);
  }
  const port = options.port === 0 ? await freePort() : options.port;
  const logDescriptor = openSync(serverLogFile(directory), "a");
  let server: ChildProcess;
  try {
    // Detached: Ctrl-C in the terminal does not reach it, and it outlives this process while others use it.
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
  try {
    await waitUntilReady(embeddedDatabaseUrl(host, port, "postgres", password.password), exited, directory);
  } catch (error) {
    await stopServerProcess(server.pid ?? -1, exited, directory).catch(() => undefined);
    throw error;
  }
  join(directory, options.purpose);
  return handle({ directory, port, owned: true, initialised, password });
}

/** Registers this process as a user (once per process) with an `exit` handler that leaves for it. */
function join(directory: string, purpose: string): void {
  const existing = handlesInThisProcess.get(directory);
  if (existing !== undefined) {
    existing.count += 1;
    return;
  }
  registerUser(directory, purpose);
  // Should this process end without leaving (process.exit, an uncaught error), it leaves now: a process `exit`
  // handler cannot wait, so the server is signalled only when the lock is free and no other user runs.
  const onExit = () => {
    unregisterUser(directory);
    if (!tryLifetimeLock(directory)) return;
    try {
      const running = runningServer(directory);
      if (running !== undefined && running.users.length === 0) process.kill(running.serverProcessId, "SIGINT");
    } catch {
    } finally {
      rmSync(lifetimeLockFile(directory), { force: true });
    }
  };
  process.once("exit", onExit);
  handlesInThisProcess.set(directory, { count: 1, onExit });
}

/** Leaves the server; stops it when this was its last live user. */
async function leave(directory: string): Promise<void> {
  const entry = handlesInThisProcess.get(directory);
  if (entry === undefined) return;
  entry.count -= 1;
  if (entry.count > 0) return;
  handlesInThisProcess.delete(directory);
  process.off("exit", entry.onExit);
  await withLifetimeLock(directory, async () => {
    unregisterUser(directory);
    if (liveUsers(directory).length > 0) return;
    const running = runningServer(directory);
    if (running !== undefined) await stopServerProcess(running.serverProcessId, undefined, directory);
  });
}

function handle(server: {
  directory: string;
  port: number;
  owned: boolean;
  initialised: boolean;
  password: ServerPassword;
}): EmbeddedPostgres {
  let stopping: Promise<void> | undefined;
  return {
    ...server,
    host,
    url: (database) => embeddedDatabaseUrl(host, server.port, database, server.password.password),
    stop() {
      stopping ??= leave(server.directory);
      return stopping;
    },
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

/** Runs a program (initdb, single-user postgres) as the server user; rejects with its output when it fails. */
async function runToCompletion(
  program: string,
  programArguments: readonly string[],
  user: ServerUser | undefined,
  directory: string,
  input?: string,
): Promise<void> {
  const child = spawn(program, programArguments, {
    stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
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
    child.stdin?.on("error", () => {});
    child.stdin?.end(input);
  });
  // Single-user mode reports a failed statement on its output and still exits 0.
  if (code !== 0 || /^(ERROR|FATAL|PANIC):/m.test(output)) {
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
