import { describe, expect, it } from "vitest";
import { summariseCpuProfile } from "./summarise-cpu-profile";

const frame = (functionName: string) => ({ functionName, url: "file:///repo/apps/cli/dist/main.js", lineNumber: 9 });

describe("summariseCpuProfile", () => {
  it("ranks self and total time in % of samples, counting a recursive function once per sample", () => {
    const profile = {
      nodes: [
        { id: 1, callFrame: { functionName: "(root)", url: "", lineNumber: -1 }, children: [2, 5] },
        { id: 2, callFrame: frame("onData"), children: [3] },
        { id: 3, callFrame: frame("push"), children: [4] },
        { id: 4, callFrame: frame("onData") },
        { id: 5, callFrame: { functionName: "(idle)", url: "", lineNumber: -1 } },
      ],
      samples: [5, 5, 3, 4],
    };
    const summary = summariseCpuProfile(profile, 10);
    expect(summary.samples).toBe(4);
    expect(summary.idlePercent).toBe(50);
    expect(summary.self).toEqual([
      { name: "(idle) :0", percent: 50 },
      { name: "push apps/cli/dist/main.js:10", percent: 25 },
      { name: "onData apps/cli/dist/main.js:10", percent: 25 },
    ]);
    expect(summary.total.find((entry) => entry.name.startsWith("onData"))?.percent).toBe(50);
    expect(summary.total[0]).toEqual({ name: "(root) :0", percent: 100 });
  });
});
