import { describe, expect, it } from "vitest";
import { formatProxyBenchmark, type ProxyBenchmarkReport } from "./proxy-benchmark-report";

const report: ProxyBenchmarkReport = {
  seconds: 5,
  repetitions: 3,
  nlqEntryPoint: "apps/cli/bin/nlq.mjs running the compiled apps/cli/dist",
  baseline: "/tmp/nlq-before",
  loadAverage: { start: 1.5, end: 2.25 },
  cells: [
    {
      mode: "prepared",
      clients: 8,
      direct: { tps: 40000 },
      nlq: { tps: 30000, ratio: 0.75, cpuMicrosecondsPerTransaction: 12.34 },
      pgbouncer: { tps: 32000, ratio: 0.8, cpuMicrosecondsPerTransaction: 8 },
      baseline: { tps: 25000, ratio: 0.625, cpuMicrosecondsPerTransaction: 15 },
      nodeRelay: { tps: 33000, ratio: 0.825, cpuMicrosecondsPerTransaction: 10 },
      javascriptRelay: { tps: 24000, ratio: 0.6, cpuMicrosecondsPerTransaction: 18 },
    },
  ],
  addedLatencyMicroseconds: { prepared: { nlq: 30, pgbouncer: 20, baseline: 40, nodeRelay: 25, javascriptRelay: 45 } },
};

describe("formatProxyBenchmark", () => {
  it("prints ratios, each proxy's CPU per transaction, the load and the baseline's own table", () => {
    const text = formatProxyBenchmark(report);
    expect(text).toContain("load average 1.5 → 2.3");
    expect(text).toContain("| prepared | 8 | 40000 | 30000 | ×0.75 | 32000 | ×0.80 | ×0.94 | 12.3 / 8.0 |");
    expect(text).toContain(
      "- prepared: nlq 30 µs, PgBouncer 20 µs, baseline 40 µs, Node relay 25 µs, nlq with NLQ_NATIVE_RELAY=off 45 µs",
    );
    expect(text).toContain("The same nlq proxy with NLQ_NATIVE_RELAY=off (its JavaScript relay), interleaved");
    expect(text).toContain("| prepared | 8 | 25000 | 30000 | ×1.20 | 12.3 / 15.0 |");
    expect(text).toContain("| prepared | 8 | 33000 | 30000 | ×0.91 | 12.3 / 10.0 |");
  });
});
