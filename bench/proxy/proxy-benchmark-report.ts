import type { IdleConnectionMeasurement } from "./idle-connections";

export interface TargetThroughput {
  readonly tps: number;
  /** tps / direct tps. */
  readonly ratio: number;
  /** The proxy's CPU time (user + system) per transaction, in microseconds (median over the repetitions). */
  readonly cpuMicrosecondsPerTransaction: number;
}

/** One mode × client count: medians over the repetitions. */
export interface ProxyBenchmarkCell {
  readonly mode: string;
  readonly clients: number;
  readonly direct: { readonly tps: number };
  readonly nlq: TargetThroughput;
  readonly pgbouncer?: TargetThroughput;
  /** The nlq proxy of the `--baseline` checkout (an A/B of a change). */
  readonly baseline?: TargetThroughput;
  /** The bare Node.js relay (`--node-relay`): the floor of a Node proxy. */
  readonly nodeRelay?: TargetThroughput;
  /** The same nlq proxy with `NLQ_NATIVE_RELAY=off` (`--javascript-relay`): every byte through its JavaScript path. */
  readonly javascriptRelay?: TargetThroughput;
}

/** What `npm run bench:proxy -- --json` prints. */
export interface ProxyBenchmarkReport {
  readonly seconds: number;
  readonly repetitions: number;
  /** What ran as the nlq proxy. */
  readonly nlqEntryPoint: string;
  /** The checkout measured as `baseline`, when `--baseline` was given. */
  readonly baseline?: string;
  /** One-minute load average when the run started and ended (other work on the machine skews every figure). */
  readonly loadAverage: { readonly start: number; readonly end: number };
  readonly cells: readonly ProxyBenchmarkCell[];
  /** Per mode at 1 client: median latency through the target minus direct, in microseconds. */
  readonly addedLatencyMicroseconds: Record<
    string,
    { nlq: number; pgbouncer?: number; baseline?: number; nodeRelay?: number; javascriptRelay?: number }
  >;
  readonly idleConnections?: {
    readonly nlq: IdleConnectionMeasurement;
    readonly pgbouncer?: IdleConnectionMeasurement;
  };
}

const ratio = (value: number) => `×${value.toFixed(2)}`;

/** A Markdown table of the report, as pasted into BENCHMARKS.md. */
export function formatProxyBenchmark(report: ProxyBenchmarkReport): string {
  const lines =
    report.cells.length === 0
      ? []
      : [
          `pgbench -S, ${report.seconds} s per run, median of ${report.repetitions} interleaved repetitions; nlq: ${report.nlqEntryPoint}; load average ${report.loadAverage.start.toFixed(1)} → ${report.loadAverage.end.toFixed(1)}`,
          "",
          "| mode | clients | direct tps | nlq tps | nlq/direct | PgBouncer tps | PgBouncer/direct | nlq/PgBouncer | proxy CPU µs/transaction nlq / PgBouncer |",
          "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
        ];
  for (const cell of report.cells) {
    const bouncer = cell.pgbouncer;
    lines.push(
      `| ${cell.mode} | ${cell.clients} | ${cell.direct.tps.toFixed(0)} | ${cell.nlq.tps.toFixed(0)} | ${ratio(cell.nlq.ratio)} | ${
        bouncer
          ? `${bouncer.tps.toFixed(0)} | ${ratio(bouncer.ratio)} | ${ratio(cell.nlq.tps / bouncer.tps)} | ${cell.nlq.cpuMicrosecondsPerTransaction.toFixed(1)} / ${bouncer.cpuMicrosecondsPerTransaction.toFixed(1)}`
          : `– | – | – | ${cell.nlq.cpuMicrosecondsPerTransaction.toFixed(1)} / –`
      } |`,
    );
  }
  const latency = Object.entries(report.addedLatencyMicroseconds);
  if (latency.length > 0) {
    lines.push("", "Added latency per round trip at 1 client (median latency minus direct):");
    for (const [mode, added] of latency) {
      lines.push(
        `- ${mode}: nlq ${added.nlq.toFixed(0)} µs${added.pgbouncer === undefined ? "" : `, PgBouncer ${added.pgbouncer.toFixed(0)} µs`}${added.baseline === undefined ? "" : `, baseline ${added.baseline.toFixed(0)} µs`}${added.nodeRelay === undefined ? "" : `, Node relay ${added.nodeRelay.toFixed(0)} µs`}${added.javascriptRelay === undefined ? "" : `, nlq with NLQ_NATIVE_RELAY=off ${added.javascriptRelay.toFixed(0)} µs`}`,
      );
    }
  }
  const others = [
    { key: "baseline" as const, title: `Baseline (${report.baseline ?? ""})` },
    { key: "nodeRelay" as const, title: "Bare Node.js relay (bench/proxy/node-relay.mjs)" },
    { key: "javascriptRelay" as const, title: "The same nlq proxy with NLQ_NATIVE_RELAY=off (its JavaScript relay)" },
  ];
  for (const { key, title } of others) {
    if (!report.cells.some((cell) => cell[key] !== undefined)) continue;
    lines.push(
      "",
      `${title}, interleaved in the same run:`,
      "",
      `| mode | clients | ${key} tps | nlq tps | nlq/${key} | proxy CPU µs/transaction nlq / ${key} |`,
      "| --- | --- | --- | --- | --- | --- |",
    );
    for (const cell of report.cells) {
      const other = cell[key];
      if (other === undefined) continue;
      lines.push(
        `| ${cell.mode} | ${cell.clients} | ${other.tps.toFixed(0)} | ${cell.nlq.tps.toFixed(0)} | ${ratio(cell.nlq.tps / other.tps)} | ${cell.nlq.cpuMicrosecondsPerTransaction.toFixed(1)} / ${other.cpuMicrosecondsPerTransaction.toFixed(1)} |`,
      );
    }
  }
  const idle = report.idleConnections;
  if (idle) {
    const describe = (name: string, measured: IdleConnectionMeasurement) =>
      `- ${name}: ${measured.residentBeforeKibibytes} → ${measured.residentAfterKibibytes} KiB for ${measured.connections} idle sessions, ${measured.kibibytesPerConnection.toFixed(1)} KiB per session`;
    lines.push("", "Resident memory per idle session (stub upstream):", describe("nlq", idle.nlq));
    if (idle.pgbouncer) lines.push(describe("PgBouncer", idle.pgbouncer));
  }
  return `${lines.join("\n")}\n`;
}
