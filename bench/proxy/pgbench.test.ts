import { describe, expect, it } from "vitest";
import { parsePgbenchReport } from "./pgbench";

describe("parsePgbenchReport", () => {
  it("reads tps and average latency from pgbench's report", () => {
    const report = [
      "transaction type: <builtin: select only>",
      "number of clients: 8",
      "number of transactions actually processed: 110206",
      "latency average = 0.290 ms",
      "initial connection time = 12.105 ms",
      "tps = 27551.623571 (without initial connection time)",
    ].join("\n");
    expect(parsePgbenchReport(report)).toEqual({
      tps: 27551.623571,
      latencyMilliseconds: 0.29,
      transactions: 110206,
    });
  });

  it("refuses a report without figures (a failed run is not a zero)", () => {
    expect(() =>
      parsePgbenchReport('pgbench: error: connection to server failed: FATAL:  database "x" does not exist'),
    ).toThrow(/no tps, latency or transactions/);
  });
});
