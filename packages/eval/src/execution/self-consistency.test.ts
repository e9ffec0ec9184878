import { describe, expect, it } from "vitest";
import type { EvaluationRun } from "./execute-for-evaluation";
import { selfConsistencyChoice } from "./self-consistency";

const rows = (...values: string[]): EvaluationRun => ({
  ok: true,
  result: { columnTypes: [23], rows: values.map((value) => [value]) },
});
const failed: EvaluationRun = { ok: false, error: "boom" };

describe("selfConsistencyChoice", () => {
  it("picks the first member of the largest cluster", () => {
    const choice = selfConsistencyChoice([
      { run: rows("1"), ordered: false },
      { run: rows("2"), ordered: false },
      { run: rows("2"), ordered: false },
    ]);
    expect(choice).toEqual({ choice: 1, clusters: 2 });
  });

  it("breaks ties by the cluster whose first member comes first", () => {
    const candidates = [rows("2"), rows("1"), rows("1"), rows("2")].map((run) => ({ run, ordered: false }));
    expect(selfConsistencyChoice(candidates).choice).toBe(0);
  });

  it("clusters order-sensitively only when both candidates order", () => {
    const forward = rows("1", "2");
    const backward = rows("2", "1");
    expect(
      selfConsistencyChoice([
        { run: forward, ordered: true },
        { run: backward, ordered: true },
      ]).clusters,
    ).toBe(2);
    expect(
      selfConsistencyChoice([
        { run: forward, ordered: true },
        { run: backward, ordered: false },
      ]).clusters,
    ).toBe(1);
  });

  it("leaves failed candidates out and chooses nothing when all failed", () => {
    expect(
      selfConsistencyChoice([
        { run: failed, ordered: false },
        { run: rows("1"), ordered: false },
      ]),
    ).toEqual({
      choice: 1,
      clusters: 1,
    });
    expect(selfConsistencyChoice([{ run: failed, ordered: false }]).choice).toBeUndefined();
  });
});
