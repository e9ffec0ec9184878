/**
 * Pass-through overhead of the nlq proxy against PostgreSQL directly and PgBouncer (session mode), in one run:
 *
 *   npm run bench:proxy [-- --json] [-- --seconds 5 --repetitions 3 --clients 1,8,32 --modes simple,extended,prepared
 *                                      --idle-sessions 1000 --url postgresql://postgres@127.0.0.1:5432/postgres
 *                                      --baseline /path/to/another/nlq/checkout --node-relay --javascript-relay
 *                                      --warm-up-seconds 2 --idle-only]
 *
 * pgbench -S (select-only) per mode and client count, the three targets interleaved (their order rotates each
 * repetition so drift hits all of them), medians over repetitions; tps ratios to direct; each proxy's CPU time per
 * transaction (user + system, from /proc: less sensitive to other load on the machine than tps); added latency per
 * round trip at 1 client (median latency through the target minus direct); resident memory per idle session of the
 * proxy and of PgBouncer at `--idle-sessions` sessions (`--idle-connections`, its older name; held against a stub
 * upstream in a process of its own, since the local server allows 100). `--idle-only` measures only that. Each proxy
 * holds two sockets per session: the runner raises the proxies' soft descriptor limit to the hard one and refuses a
 * session count the hard limit cannot hold. PgBouncer comes from Debian (`apt-get install pgbouncer`); without it the
 * PgBouncer columns are absent.
 *
 * `--baseline` adds a fourth target, the nlq proxy of another checkout (built there with `npm run build`), interleaved
 * with the others: an A/B of a change to the proxy in the same conditions (no idle-memory figure for it).
 * `--node-relay` adds a bare Node.js TCP relay (`node-relay.mjs`): the floor any Node proxy pays (event loop, streams,
 * system calls), to tell it apart from the cost of nlq's own code. `--javascript-relay` adds the same nlq proxy with
 * `NLQ_NATIVE_RELAY=off`: every byte through its JavaScript connection, as before the native relay.
 *
 * Every proxy first serves each mode for `--warm-up-seconds` (default 2, not counted): figures are steady state.
 *
 * nlq is measured as shipped: the runner builds apps/cli/dist and the native relay (`npm run build`) and starts the
 * production entry point (`apps/cli/bin/nlq.mjs`), which refuses to be measured when it falls back to tsx or when it
 * does not use the relay asked for.
 */
import { spawnSync } from "node:child_process";
import { loadavg } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { median } from "@nlq/eval";
import {
  findPgBouncer,
  hardDescriptorLimit,
  type ServedProcess,
  startNlqProxy,
  startNodeRelay,
  startPgBouncer,
} from "./benchmark-targets";
import { type IdleConnectionMeasurement, measureIdleConnections } from "./idle-connections";
import { type PgbenchMode, type PgbenchRun, runPgbench } from "./pgbench";
import { formatProxyBenchmark, type ProxyBenchmarkCell, type ProxyBenchmarkReport } from "./proxy-benchmark-report";
import { startStubUpstreamProcess } from "./stub-upstream-server";

const { values: options } = parseArgs({
  options: {
    url: { type: "string", default: "postgresql://postgres@127.0.0.1:5432/postgres" },
    seconds: { type: "string", default: "5" },
    repetitions: { type: "string", default: "3" },
    clients: { type: "string", default: "1,8,32" },
    modes: { type: "string", default: "simple,extended,prepared" },
    "idle-sessions": { type: "string" },
    "idle-connections": { type: "string", default: "1000" },
    "idle-only": { type: "boolean", default: false },
    "warm-up-seconds": { type: "string", default: "2" },
    json: { type: "boolean", default: false },
    baseline: { type: "string" },
    "node-relay": { type: "boolean", default: false },
    "javascript-relay": { type: "boolean", default: false },
  },
});

const repository = fileURLToPath(new URL("../..", import.meta.url));
const server = new URL(options.url);
const serverHost = server.hostname || "127.0.0.1";
const serverPort = Number(server.port || 5432);
const user = decodeURIComponent(server.username || "postgres");
const seconds = Number(options.seconds);
const repetitions = Number(options.repetitions);
const clientCounts = options.clients.split(",").map(Number);
// `--idle-only`: no mode is measured (the throughput targets still start, and are left alone).
const modes = (options["idle-only"] ? [] : options.modes.split(",")) as PgbenchMode[];
const idleConnections = Number(options["idle-sessions"] ?? options["idle-connections"]);
const descriptorLimit = hardDescriptorLimit();
// Two sockets per session in the proxy, and a margin for its own files (listening sockets, logs, the addon, pipes).
if (idleConnections > 0 && 2 * idleConnections + 64 > descriptorLimit) {
  throw new Error(
    `${idleConnections} idle sessions need ${2 * idleConnections + 64} file descriptors in each proxy, the hard limit here is ${descriptorLimit} (ulimit -Hn): at most ${Math.floor((descriptorLimit - 64) / 2)} sessions`,
  );
}
const log = (line: string) => process.stderr.write(`${line}\n`);

const database = `nlq_bench_proxy_${process.pid}`;
const connection = ["-h", serverHost, "-p", String(serverPort), "-U", user];
spawnSync("createdb", [...connection, database], { stdio: "inherit" });
const stopped: Array<() => Promise<void>> = [];
const loadAverageAtStart = loadavg()[0]!;
try {
  log("building apps/cli/dist and the native relay (the compiled proxy is what is measured)");
  for (const script of ["build-cli.mjs", "build-native-relay.mjs"]) {
    const build = spawnSync(process.execPath, [`${repository}scripts/${script}`, "--require"], { stdio: "inherit" });
    if (build.status !== 0) throw new Error(`scripts/${script} failed`);
  }
  log(`preparing pgbench data (scale 5) in ${database}`);
  spawnSync("pgbench", [...connection, "-i", "-s", "5", "-q", database], { stdio: "ignore" });
  const nlq = await startNlqProxy(repository, serverPort);
  stopped.push(() => nlq.stop());
  let baseline: ServedProcess | undefined;
  if (options.baseline !== undefined) {
    baseline = await startNlqProxy(`${path.resolve(options.baseline)}/`, serverPort);
    stopped.push(() => baseline!.stop());
  }
  let javascriptRelay: ServedProcess | undefined;
  if (options["javascript-relay"]) {
    javascriptRelay = await startNlqProxy(repository, serverPort, "javascript");
    stopped.push(() => javascriptRelay!.stop());
  }
  let relay: ServedProcess | undefined;
  if (options["node-relay"]) {
    relay = await startNodeRelay(repository, serverPort);
    stopped.push(() => relay!.stop());
  }
  const bouncerExecutable = findPgBouncer();
  let bouncer: ServedProcess | undefined;
  if (bouncerExecutable) {
    bouncer = await startPgBouncer(bouncerExecutable, serverPort, Math.max(...clientCounts));
    stopped.push(() => bouncer!.stop());
  } else log("PgBouncer is not installed (apt-get install pgbouncer): its columns are left out");
  type TargetName = "direct" | "nlq" | "pgbouncer" | "baseline" | "nodeRelay" | "javascriptRelay";
  const targets: Array<{ name: TargetName; host: string; port: number; process?: ServedProcess }> = [
    { name: "direct", host: serverHost, port: serverPort },
    { name: "nlq", host: "127.0.0.1", port: nlq.port, process: nlq },
    ...(bouncer ? [{ name: "pgbouncer" as const, host: "127.0.0.1", port: bouncer.port, process: bouncer }] : []),
    ...(baseline ? [{ name: "baseline" as const, host: "127.0.0.1", port: baseline.port, process: baseline }] : []),
    ...(relay ? [{ name: "nodeRelay" as const, host: "127.0.0.1", port: relay.port, process: relay }] : []),
    ...(javascriptRelay
      ? [{ name: "javascriptRelay" as const, host: "127.0.0.1", port: javascriptRelay.port, process: javascriptRelay }]
      : []),
  ];

  // Each proxy serves every mode once before anything is counted, so that no figure includes V8 compiling nlq's code.
  const warmUpSeconds = Number(options["warm-up-seconds"]);
  if (warmUpSeconds > 0) {
    for (const target of targets.filter((candidate) => candidate.process !== undefined)) {
      for (const mode of modes) {
        const clients = Math.max(...clientCounts);
        try {
          runPgbench({ host: target.host, port: target.port, user, database, mode, clients, seconds: warmUpSeconds });
        } catch (error) {
          // Not counted either way: a warm-up that got no transaction in (its clients still connecting) is not fatal.
          log(
            `warm-up ${mode} on ${target.name} counted nothing: ${error instanceof Error ? error.message.split("\n")[0] : error}`,
          );
        }
      }
    }
    log(`warmed up each proxy (${warmUpSeconds} s per mode, not counted)`);
  }

  type MeasuredRun = PgbenchRun & { readonly proxyCpuMicrosecondsPerTransaction: number };
  const runs = new Map<string, MeasuredRun[]>();
  const key = (mode: string, clients: number, target: string) => `${mode}/${clients}/${target}`;
  for (let repetition = 0; repetition < repetitions; repetition++) {
    for (const mode of modes) {
      for (const clients of clientCounts) {
        const order = targets.map((_, index) => targets[(index + repetition) % targets.length]!);
        for (const target of order) {
          const cpuBefore = target.process?.cpuMicroseconds() ?? 0;
          const measured = runPgbench({ host: target.host, port: target.port, user, database, mode, clients, seconds });
          const cpu = (target.process?.cpuMicroseconds() ?? 0) - cpuBefore;
          const run = { ...measured, proxyCpuMicrosecondsPerTransaction: cpu / measured.transactions };
          log(
            `repetition ${repetition + 1}/${repetitions} ${mode} c=${clients} ${target.name}: ${run.tps.toFixed(0)} tps, ${run.latencyMilliseconds.toFixed(3)} ms${target.process ? `, ${run.proxyCpuMicrosecondsPerTransaction.toFixed(1)} µs proxy CPU per transaction` : ""} (load ${loadavg()[0]!.toFixed(1)})`,
          );
          const list = runs.get(key(mode, clients, target.name)) ?? [];
          list.push(run);
          runs.set(key(mode, clients, target.name), list);
        }
      }
    }
  }
  const medianOf = (mode: string, clients: number, target: string, field: keyof MeasuredRun) =>
    median((runs.get(key(mode, clients, target)) ?? []).map((run) => run[field]));

  const cells: ProxyBenchmarkCell[] = [];
  for (const mode of modes) {
    for (const clients of clientCounts) {
      const direct = medianOf(mode, clients, "direct", "tps");
      const throughput = (target: TargetName) => {
        const tps = medianOf(mode, clients, target, "tps");
        return {
          tps,
          ratio: tps / direct,
          cpuMicrosecondsPerTransaction: medianOf(mode, clients, target, "proxyCpuMicrosecondsPerTransaction"),
        };
      };
      cells.push({
        mode,
        clients,
        direct: { tps: direct },
        nlq: throughput("nlq"),
        ...(bouncer ? { pgbouncer: throughput("pgbouncer") } : {}),
        ...(baseline ? { baseline: throughput("baseline") } : {}),
        ...(relay ? { nodeRelay: throughput("nodeRelay") } : {}),
        ...(javascriptRelay ? { javascriptRelay: throughput("javascriptRelay") } : {}),
      });
    }
  }
  const addedLatencyMicroseconds: ProxyBenchmarkReport["addedLatencyMicroseconds"] = {};
  if (clientCounts.includes(1)) {
    for (const mode of modes) {
      const direct = medianOf(mode, 1, "direct", "latencyMilliseconds");
      addedLatencyMicroseconds[mode] = {
        nlq: (medianOf(mode, 1, "nlq", "latencyMilliseconds") - direct) * 1000,
        ...(bouncer ? { pgbouncer: (medianOf(mode, 1, "pgbouncer", "latencyMilliseconds") - direct) * 1000 } : {}),
        ...(baseline ? { baseline: (medianOf(mode, 1, "baseline", "latencyMilliseconds") - direct) * 1000 } : {}),
        ...(relay ? { nodeRelay: (medianOf(mode, 1, "nodeRelay", "latencyMilliseconds") - direct) * 1000 } : {}),
        ...(javascriptRelay
          ? { javascriptRelay: (medianOf(mode, 1, "javascriptRelay", "latencyMilliseconds") - direct) * 1000 }
          : {}),
      };
    }
  }

  let idle: ProxyBenchmarkReport["idleConnections"];
  if (idleConnections > 0) {
    log(`holding ${idleConnections} idle sessions through each target (stub upstream)`);
    const stub = await startStubUpstreamProcess();
    stopped.push(() => stub.close());
    const nlqIdleProxy = await startNlqProxy(repository, stub.port, "native", {
      NLQ_MAX_CONNECTIONS: String(idleConnections + 10),
    });
    stopped.push(() => nlqIdleProxy.stop());
    const nlqIdle: IdleConnectionMeasurement = await measureIdleConnections(nlqIdleProxy, idleConnections);
    let bouncerIdle: IdleConnectionMeasurement | undefined;
    if (bouncerExecutable) {
      const idleBouncer = await startPgBouncer(bouncerExecutable, stub.port, idleConnections);
      stopped.push(() => idleBouncer.stop());
      bouncerIdle = await measureIdleConnections(idleBouncer, idleConnections);
    }
    idle = { nlq: nlqIdle, ...(bouncerIdle ? { pgbouncer: bouncerIdle } : {}) };
  }

  const report: ProxyBenchmarkReport = {
    seconds,
    repetitions,
    nlqEntryPoint: "apps/cli/bin/nlq.mjs running the compiled apps/cli/dist, with the native relay",
    ...(options.baseline === undefined ? {} : { baseline: path.resolve(options.baseline) }),
    loadAverage: { start: loadAverageAtStart, end: loadavg()[0]! },
    cells,
    addedLatencyMicroseconds,
    ...(idle ? { idleConnections: idle } : {}),
  };
  process.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatProxyBenchmark(report));
} finally {
  for (const stop of stopped.reverse()) await stop().catch(() => undefined);
  spawnSync("dropdb", [...connection, "--if-exists", "--force", database], { stdio: "ignore" });
}
