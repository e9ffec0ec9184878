import { oneEventOfEachType } from "@nlq/engine/testing";
import { describe, expect, it } from "vitest";
import { describeProgress } from "./progress-notice";

describe("describeProgress", () => {
  it("describes the steps worth a line", () => {
    expect(describeProgress({ type: "catalog-end", tables: 3, columns: 12, source: "introspection" })).toBe(
      "nlq: Read the schema: 3 tables, 12 columns (introspected)",
    );
    expect(describeProgress({ type: "candidate-end", candidate: 0, sql: "x", ok: false, error: "boom" })).toBe(
      "nlq: SQL candidate 1 failed: boom",
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
    ).toBe("nlq: Model call generate-candidate: scripted:f.json (scripted replay), 4 ms");
    expect(describeProgress({ type: "keywords-end", keywords: ["Pari"], source: "heuristic" })).toBe(
      "nlq: Extracted keywords: Pari (heuristic, no model)",
    );
    expect(
      describeProgress({
        type: "values-end",
        values: [{ keyword: "Pari", table: "world_1.city", column: "name", value: "Paris" }],
      }),
    ).toBe("nlq: Matched database values: Pari → world_1.city.name = 'Paris'");
  });

  it("skips the rest", () => {
    expect(describeProgress({ type: "pipeline-start", question: "q" })).toBeUndefined();
    expect(describeProgress({ type: "pipeline-end", sql: "x", rows: 1, elapsedMilliseconds: 1 })).toBeUndefined();
  });

  it("has a line or a deliberate silence for every event type; a model call speaks only at its end", () => {
    const lines = Object.fromEntries(
      Object.values(oneEventOfEachType).map((event) => [event.type, describeProgress(event)]),
    );
    expect(lines).toEqual({
      "pipeline-start": undefined,
      "catalog-start": undefined,
      "catalog-end": "nlq: Read the schema: 3 tables, 12 columns (introspected)",
      "keywords-start": undefined,
      "keywords-end": "nlq: Extracted keywords: cities, France",
      "values-start": undefined,
      "values-end": "nlq: Matched database values: France → world.country.name = 'France'",
      "context-start": undefined,
      "context-end": "nlq: Searched table and column descriptions: world.city, world.country.name",
      "crush-start": "nlq: Hallucinating a minimal schema: at most 30 columns",
      "crush-end": "nlq: Chose a schema subset: 9 columns for city.name, country.name",
      "schema-start": "nlq: Selecting the relevant schema: from 3 tables, 12 columns",
      "readings-end":
        "nlq: Looked for other readings of the question: «name» may mean world.city.name or world.city.local_name (candidates for each)",
      "schema-end": "nlq: Selected the relevant schema: 2 tables, 5 columns",
      "candidate-start": "nlq: Writing SQL candidate 1: one-shot",
      "candidate-end": "nlq: SQL candidate 1: ran, 4 rows",
      "fix-start": "nlq: Fixing candidate 1 (attempt 1): empty result",
      "fix-end": undefined,
      "selection-start": "nlq: Choosing the answer: 2 distinct results among 3 candidates",
      "selection-end": "nlq: Chose the answer: confidence 75% (won 3 of 4 pairwise comparisons)",
      "summary-start": undefined,
      "summary-end": undefined,
      "llm-call-start": undefined,
      "llm-call-end": "nlq: Model call generate-candidate: scripted:demo.json (scripted replay), 5 ms",
      "pipeline-end": undefined,
    });
  });

  it("names a comparison of several candidates and cuts long context lists", () => {
    expect(
      describeProgress({ type: "selection-start", candidates: 3, clusters: 1, selector: "single" }),
    ).toBeUndefined();
    expect(describeProgress({ type: "candidate-start", candidate: 1, generator: "query-plan", sample: 1 })).toBe(
      "nlq: Writing SQL candidate 2: query-plan, sample 2",
    );
    const hits = Array.from({ length: 10 }, (_, index) => ({ table: `public.t${index}` }));
    expect(describeProgress({ type: "context-end", hits })).toBe(
      "nlq: Searched table and column descriptions: public.t0, public.t1, public.t2, public.t3, public.t4, public.t5, public.t6, public.t7 and 2 more",
    );
    expect(describeProgress({ type: "context-end", hits: [] })).toBe(
      "nlq: Searched table and column descriptions: no matching descriptions",
    );
  });
});
