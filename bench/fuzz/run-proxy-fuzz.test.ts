import { describe, expect, it } from "vitest";
import { runProxyFuzz } from "./run-proxy-fuzz";

describe("the proxy under a protocol fuzzer (short run)", () => {
  it("survives 20,000 random and mutated frames: no crash, no hang, bounded memory, no backend left", async () => {
    const seed = 20_251_122;
    const report = await runProxyFuzz({ frames: 20_000, seed });
    console.log(`proxy fuzz: ${JSON.stringify({ ...report, crashMessages: report.crashMessages.length })}`);
    expect(report.crashMessages).toEqual([]);
    expect(report.crashes).toBe(0);
    expect(report.hangMessages).toEqual([]);
    expect(report.hangs).toBe(0);
    expect(report.leftoverBackends).toBe(0);
    expect(report.frames).toBeGreaterThanOrEqual(20_000);
    // Memory bound, not a timing: the proxy must not grow by more than 256 MB over the run.
    expect(report.maximumRssBytes - report.baselineRssBytes).toBeLessThan(256 * 1024 * 1024);
  }, 300_000);
});
