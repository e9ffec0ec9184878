import { pipelineSteps } from "@nlq/engine";
import { oneEventOfEachType } from "@nlq/engine/testing";
import { describe, expect, it } from "vitest";
import { describeEvent } from "./progress-line";

describe("describeEvent", () => {
  it("has a line or a deliberate silence for every event type", () => {
    const lines = Object.fromEntries(
      Object.values(oneEventOfEachType).map((event) => [event.type, describeEvent(event)]),
    );
    expect(lines).toEqual({
      "pipeline-start": undefined,
      "catalog-start": undefined,
      "catalog-end": "catalog: 3 tables, 12 columns (live introspection)",
      "keywords-start": undefined,
      "keywords-end": "keywords: cities, France",
      "values-start": undefined,
      "values-end": "values: France → world.country.name = 'France'",
      "context-start": undefined,
      "context-end": "context: world.city, world.country.name",
      "crush-start": "crush: hallucinating a schema to keep at most 30 columns",
      "crush-end": "crush: 9 columns kept (hallucinated: city.name, country.name)",
      "schema-start": "schema: selecting from 3 tables, 12 columns",
      "schema-end": "schema: 2 tables, 5 columns selected",
      "candidate-start": "candidate 1: generating (one-shot)",
      "candidate-end": "candidate 1: 4 rows",
      "fix-start": "candidate 1: fixing, attempt 1 (empty result)",
      "fix-end": undefined,
      "selection-start": "selection: 2 distinct results among 3 candidates, choosing by pairwise",
      "selection-end": "selection: chosen by pairwise, confidence 0.75 (won 3 of 4 pairwise comparisons)",
      "summary-start": undefined,
      "summary-end": undefined,
      "llm-call-start": "model call generate-candidate: Writing SQL…",
      "llm-call-end": "model call generate-candidate: scripted:demo.json (scripted), 120+30 tokens, 5 ms",
      "pipeline-end": undefined,
    });
  });

  it("says when a model call failed", () => {
    expect(
      describeEvent({
        type: "llm-call-end",
        call: {
          step: "select-candidate",
          model: "openai:gpt-4o-mini",
          scripted: false,
          failure: "unreadable-output",
          inputTokens: 900,
          outputTokens: 12,
          latencyMilliseconds: 700,
        },
      }),
    ).toBe("model call select-candidate: openai:gpt-4o-mini, failed (unreadable-output), 900+12 tokens, 700 ms");
  });

  it("says why an answer has no plain-language sentence (the sentence itself is printed with the answer)", () => {
    expect(describeEvent({ type: "summary-end", omittedReason: "no scripted response" })).toBe(
      "answer sentence: none (no scripted response)",
    );
  });

  it("labels a model call with the step registry's label", () => {
    expect(describeEvent({ type: "llm-call-start", step: "filter-column" })).toBe(
      `model call filter-column: ${pipelineSteps["filter-column"].label}…`,
    );
  });

  it("writes one values line per keyword and says when a heuristic replaced the model", () => {
    expect(
      describeEvent({
        type: "values-end",
        values: [
          { keyword: "Rotterdm", table: "world_1.city", column: "name", value: "Rotterdam" },
          { keyword: "Pari", table: "world_1.city", column: "name", value: "Paris" },
          { keyword: "Rotterdm", table: "world_1.city", column: "district", value: "Zuid-Holland" },
        ],
      }),
    ).toBe(
      "values: Rotterdm → world_1.city.name = 'Rotterdam', world_1.city.district = 'Zuid-Holland'\n" +
        "values: Pari → world_1.city.name = 'Paris'",
    );
    expect(
      describeEvent({ type: "keywords-end", keywords: [], source: "heuristic", fallbackReason: "no response" }),
    ).toBe("keywords: none (heuristic, no model: no response)");
  });

  it("names a comparison of several candidates, an empty context and cuts long context lists", () => {
    expect(describeEvent({ type: "selection-start", candidates: 3, clusters: 1, selector: "single" })).toBeUndefined();
    expect(describeEvent({ type: "candidate-start", candidate: 4, generator: "query-plan", sample: 2 })).toBe(
      "candidate 5: generating (query-plan, sample 3)",
    );
    expect(
      describeEvent({
        type: "selection-end",
        sql: "select 1",
        candidates: 1,
        clusters: 1,
        selector: "single",
        basis: "one candidate was written: nothing to compare",
      }),
    ).toBeUndefined();
    expect(describeEvent({ type: "context-end", hits: [] })).toBe("context: no matching descriptions");
    const hits = Array.from({ length: 9 }, (_, index) => ({ table: "public.t", column: `c${index}` }));
    expect(describeEvent({ type: "context-end", hits })).toMatch(/public\.t\.c7 and 1 more$/);
  });
});
