import { spawnSync } from "node:child_process";

export type PgbenchMode = "simple" | "extended" | "prepared";

export interface PgbenchOptions {
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly database: string;
  readonly mode: PgbenchMode;
  readonly clients: number;
  readonly seconds: number;
}

export interface PgbenchRun {
  /** Transactions per second, without the initial connection time. */
  readonly tps: number;
  /** pgbench's `latency average`, in milliseconds. */
  readonly latencyMilliseconds: number;
  /** Transactions processed in the run (`number of transactions actually processed`). */
  readonly transactions: number;
}

/** Reads tps, average latency and the transaction count from pgbench's report; throws when one is missing. */
export function parsePgbenchReport(report: string): PgbenchRun {
  const tps = /^tps = ([\d.]+)/m.exec(report);
  const latency = /^latency average = ([\d.]+) ms/m.exec(report);
  const transactions = /^number of transactions actually processed: (\d+)/m.exec(report);
  if (!tps || !latency || !transactions) throw new Error(`pgbench printed no tps, latency or transactions:\n${report}`);
  return { tps: Number(tps[1]), latencyMilliseconds: Number(latency[1]), transactions: Number(transactions[1]) };
}

/** One select-only pgbench run (`-S -n`, one thread per two clients at most, the machine has 2 cores). */
export function runPgbench(options: PgbenchOptions): PgbenchRun {
  const threads = Math.max(1, Math.min(2, options.clients));
  const result = spawnSync(
    "pgbench",
    [
      ...["-h", options.host, "-p", String(options.port), "-U", options.user],
      ...["-S", "-n", "-M", options.mode, "-c", String(options.clients), "-j", String(threads)],
      ...["-T", String(options.seconds), options.database],
    ],
    { encoding: "utf8" },
  );
  return parsePgbenchReport(`${result.stdout}\n${result.stderr}`);
}
