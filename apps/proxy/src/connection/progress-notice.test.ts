import { describe, expect, it } from "vitest";
import { describeProgress } from "./progress-notice";

describe("describeProgress", () => {
  it("describes the steps worth a line", () => {
    expect(describeProgress({ type: "catalog-end", tables: 3, columns: 12, source: "introspection" })).toBe(
      "nlq: schema read (3 tables, 12 columns, from introspection)",
    );
    expect(describeProgress({ type: "candidate-end", candidate: 0, sql: "x", ok: false, error: "boom" })).toBe(
      "nlq: candidate 1 failed: boom",
    );
    expect(
      describeProgress({
        type: "llm-call-end",
        call: {
          step: "generate-candidate",
          model: "scripted:f.json",
          scripted: true,
          inputTokens: 1,
          outputTokens: 1,
          latencyMilliseconds: 4,
        },
      }),
    ).toBe("nlq: generate-candidate by scripted:f.json (scripted replay) in 4 ms");
    expect(describeProgress({ type: "keywords-end", keywords: ["Pari"], source: "heuristic" })).toBe(
      "nlq: keywords Pari (heuristic, no model)",
    );
    expect(
      describeProgress({
        type: "values-end",
        values: [{ keyword: "Pari", table: "world_1.city", column: "name", value: "Paris" }],
      }),
    ).toBe("nlq: values Pari → world_1.city.name = 'Paris'");
  });

  it("skips the rest", () => {
    expect(describeProgress({ type: "pipeline-start", question: "q" })).toBeUndefined();
    expect(describeProgress({ type: "pipeline-end", sql: "x", rows: 1, elapsedMilliseconds: 1 })).toBeUndefined();
  });
});
