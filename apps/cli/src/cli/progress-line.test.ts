import { oneEventOfEachType } from "@nlq/engine/testing";
import { describe, expect, it } from "vitest";
import { describeEvent } from "./progress-line";

/**
 * What the CLI adds to the engine's describeProgressStep (whose words its own test covers): which steps get a line at
 * all, and a model call's tokens.
 */
describe("describeEvent", () => {
  it("has a line or a deliberate silence for every event type", () => {
    const lines = Object.fromEntries(
      Object.values(oneEventOfEachType).map((event) => [event.type, describeEvent(event)]),
    );
    expect(lines).toEqual({
      "pipeline-start": undefined,
      "catalog-start": undefined,
      "catalog-end": "Read the schema: 3 tables, 12 columns (introspected)",
      "keywords-start": undefined,
      "keywords-end": "Extracted keywords: cities, France",
      "values-start": undefined,
      "values-end": "Matched database values: France → world.country.name = 'France'",
      "context-start": undefined,
      "context-end": "Searched table and column descriptions: world.city, world.country.name",
      "crush-start": "Hallucinating a minimal schema: at most 30 columns",
      "crush-end": "Chose a schema subset: 9 columns for city.name, country.name",
      "schema-start": "Selecting the relevant schema: from 3 tables, 12 columns",
      "readings-end":
        "Looked for other readings of the question: «name» may mean world.city.name or world.city.local_name (candidates for each)",
      "schema-end": "Selected the relevant schema: 2 tables, 5 columns",
      "candidate-start": "Writing SQL candidate 1: one-shot",
      "candidate-end": "SQL candidate 1: ran, 4 rows",
      "fix-start": "Fixing candidate 1 (attempt 1): empty result",
      "fix-end": undefined,
      "selection-start": "Choosing the answer: 2 distinct results among 3 candidates",
      "selection-end": "Chose the answer: confidence 75% (won 3 of 4 pairwise comparisons)",
      "summary-start": undefined,
      "summary-end": undefined,
      "llm-call-start": "Model call generate-candidate: Writing SQL…",
      "llm-call-end": "Model call generate-candidate: scripted:demo.json (scripted replay), 5 ms, 120+30 tokens",
      "pipeline-end": undefined,
    });
  });

  it("says when a model call failed, with its tokens", () => {
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
    ).toBe("Model call select-candidate failed: openai:gpt-4o-mini (unreadable-output), 700 ms, 900+12 tokens");
  });

  it("says why an answer has no plain-language sentence (the sentence itself is printed with the answer)", () => {
    expect(describeEvent({ type: "summary-end", omittedReason: "no scripted response" })).toBe(
      "No plain-language answer: no scripted response",
    );
  });
});
