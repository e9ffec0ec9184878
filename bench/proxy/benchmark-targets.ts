import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { chmodSync, chownSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A process serving the PostgreSQL protocol on 127.0.0.1:`port` (the nlq proxy or PgBouncer). */
export interface ServedProcess {
  readonly port: number;
  readonly pid: number;
  /** Resident set size now, in KiB (from /proc). */
  residentKibibytes(): number;
  /** CPU time the process has used so far (user + system), in microseconds (from /proc). */
  cpuMicroseconds(): number;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no TCP address");
  return address.port;
}

function residentKibibytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const match = /^VmRSS:\s+(\d+) kB/m.exec(status);
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]);
}

/** Clock ticks per second of /proc/<pid>/stat's times (`getconf CLK_TCK`, 100 on Linux). */
const clockTicksPerSecond = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout?.trim()) || 100;

/** User + system CPU time of `pid` so far, in microseconds (/proc/<pid>/stat fields 14 and 15). */
export function cpuMicroseconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name (field 2) is in parentheses and may hold spaces: count fields after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  if (!Number.isFinite(ticks)) throw new Error(`no CPU times in /proc/${pid}/stat`);
  return (ticks * 1_000_000) / clockTicksPerSecond;
}

/** The hard limit on open file descriptors of processes started here (`ulimit -Hn`). */
export function hardDescriptorLimit(): number {
  const limit = spawnSync("sh", ["-c", "ulimit -Hn"], { encoding: "utf8" }).stdout.trim();
  return limit === "unlimited" ? Number.POSITIVE_INFINITY : Number(limit);
}

/**
 * `sh` arguments that raise the soft descriptor limit to the hard one, then `exec` the command that follows (same
 * pid): a proxy holding 10,000 idle sessions has 20,000 sockets open.
 */
const WITH_HARD_DESCRIPTOR_LIMIT = ["-c", 'ulimit -n "$(ulimit -Hn)" && exec "$@"', "sh"];

/** What bin/nlq.mjs prints when apps/cli/dist is missing or stale and it runs the sources through tsx instead. */
const RUNS_THROUGH_TSX = "running the TypeScript sources through tsx";

const pause = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

function isReady(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const check = spawn("pg_isready", ["-q", "-h", "127.0.0.1", "-p", String(port)], { stdio: "ignore" });
    check.once("exit", (code) => resolve(code === 0));
    check.once("error", () => resolve(false));
  });
}

/**
 * Waits until `pg_isready` answers on the port (up to `seconds`). Asynchronous, so a server in this process (the stub
 * upstream) keeps serving while it waits.
 */
export async function waitReady(port: number, seconds = 60): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (await isReady(port)) return;
    await pause(200);
  }
  throw new Error(`nothing answers on 127.0.0.1:${port} after ${seconds} s`);
}

/** SIGTERM, then SIGKILL after 15 s if the process is still there. */
function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const kill = setTimeout(() => child.kill("SIGKILL"), 15_000);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/**
 * Starts `nlq proxy` (the production entry point, `apps/cli/bin/nlq.mjs`, running the compiled apps/cli/dist) in
 * front of `upstreamPort`, with its own throwaway `NLQ_HOME` and without a model (pass-through only). Throws when
 * nlq.mjs fell back to running the TypeScript sources through tsx (dist missing or stale: `npm run build`), so a
 * figure never silently measures the development path.
 */
export async function startNlqProxy(
  repository: string,
  upstreamPort: number,
  relay: "native" | "javascript" = "native",
  environment: Record<string, string> = {},
): Promise<ServedProcess> {
  const port = await freePort();
  const home = mkdtempSync(join(tmpdir(), "nlq-bench-proxy-"));
  const child = spawn(
    "sh",
    [
      ...WITH_HARD_DESCRIPTOR_LIMIT,
      process.execPath,
      join(repository, "apps/cli/bin/nlq.mjs"),
      "proxy",
      "--upstream",
      `postgresql://127.0.0.1:${upstreamPort}`,
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
        NLQ_NATIVE_RELAY: relay === "native" ? "on" : "off",
        ...environment,
      },
      stdio: ["ignore", "ignore", openSync(join(home, "proxy.log"), "w")],
    },
  );
  try {
    await waitReady(port);
    if (readFileSync(join(home, "proxy.log"), "utf8").includes(RUNS_THROUGH_TSX)) {
      throw new Error("nlq ran its TypeScript sources through tsx, not apps/cli/dist: run npm run build first");
    }
    // The proxy logs which relay it uses when it starts listening; measure only the one asked for.
    const logged = readFileSync(join(home, "proxy.log"), "utf8");
    if (!logged.includes(`"relay":"${relay}"`)) throw new Error(`the nlq proxy does not use the ${relay} relay`);
  } catch (error) {
    process.stderr.write(readFileSync(join(home, "proxy.log"), "utf8"));
    await stopChild(child);
    rmSync(home, { recursive: true, force: true });
    throw error;
  }
  return {
    port,
    pid: child.pid!,
    residentKibibytes: () => residentKibibytes(child.pid!),
    cpuMicroseconds: () => cpuMicroseconds(child.pid!),
    async stop() {
      await stopChild(child);
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** Starts the bare Node.js TCP relay (`bench/proxy/node-relay.mjs`: a Node proxy's floor) before `upstreamPort`. */
export async function startNodeRelay(repository: string, upstreamPort: number): Promise<ServedProcess> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [join(repository, "bench/proxy/node-relay.mjs"), String(port), String(upstreamPort)],
    { stdio: ["ignore", "ignore", "inherit"] },
  );
  try {
    await waitReady(port);
  } catch (error) {
    await stopChild(child);
    throw error;
  }
  return {
    port,
    pid: child.pid!,
    residentKibibytes: () => residentKibibytes(child.pid!),
    cpuMicroseconds: () => cpuMicroseconds(child.pid!),
    stop: () => stopChild(child),
  };
}

/** Where Debian installs PgBouncer (`apt-get install pgbouncer`), or undefined when it is not installed. */
export function findPgBouncer(): string | undefined {
  for (const candidate of ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer"]) {
    if (spawnSync(candidate, ["--version"]).status === 0) return candidate;
  }
  return undefined;
}

/**
 * Starts PgBouncer in session mode in front of `upstreamPort`, every database (trust authentication), as the `postgres`
 * user when running as root (PgBouncer refuses to run as root).
 */
export async function startPgBouncer(
  executable: string,
  upstreamPort: number,
  maximumConnections: number,
): Promise<ServedProcess> {
  const port = await freePort();
  const directory = mkdtempSync(join(tmpdir(), "nlq-bench-pgbouncer-"));
  writeFileSync(
    join(directory, "pgbouncer.ini"),
    [
      "[databases]",
      `* = host=127.0.0.1 port=${upstreamPort}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "auth_type = trust",
      `auth_file = ${join(directory, "users.txt")}`,
      "pool_mode = session",
      `max_client_conn = ${maximumConnections + 10}`,
      `default_pool_size = ${maximumConnections + 10}`,
      `max_db_connections = ${maximumConnections + 10}`,
      "ignore_startup_parameters = extra_float_digits",
      `logfile = ${join(directory, "pgbouncer.log")}`,
      "unix_socket_dir =",
      "",
    ].join("\n"),
  );
  writeFileSync(join(directory, "users.txt"), '"postgres" ""\n');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const postgres = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
    const uid = Number(postgres.stdout.trim());
    chmodSync(directory, 0o755);
    for (const file of ["", "pgbouncer.ini", "users.txt"]) chownSync(join(directory, file), uid, uid);
  }
  // -q: PgBouncer logs to its logfile only, not to the benchmark's stderr as well.
  // runuser resets the descriptor limit (PAM): the shell that raises it runs as postgres, then becomes PgBouncer.
  const withLimit = ["sh", ...WITH_HARD_DESCRIPTOR_LIMIT, executable, "-q", join(directory, "pgbouncer.ini")];
  const [command, ...args] = asRoot ? ["runuser", "-u", "postgres", "--", ...withLimit] : withLimit;
  const child = spawn(command!, args, { stdio: ["ignore", "ignore", "inherit"] });
  await waitReady(port);
  // With runuser, PgBouncer is a child of runuser: read its own pid for memory figures.
  const pid = asRoot ? findChildPid(child.pid!) : child.pid!;
  return {
    port,
    pid,
    residentKibibytes: () => residentKibibytes(pid),
    cpuMicroseconds: () => cpuMicroseconds(pid),
    async stop() {
      await stopChild(child);
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

function findChildPid(parent: number): number {
  const children = readFileSync(`/proc/${parent}/task/${parent}/children`, "utf8").trim().split(/\s+/);
  const pid = Number(children[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : parent;
}
