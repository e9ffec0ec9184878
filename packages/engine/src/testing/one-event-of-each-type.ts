import type { PipelineEvent, PipelineEventType } from "../contract/events";

/**
 * One sample event of every `PipelineEvent` type, for the progress formatters' tests (each surface feeds all of
 * them once). Keyed by type, so a new event type does not compile until it has a sample here.
 */
export const oneEventOfEachType: { readonly [TYPE in PipelineEventType]: Extract<PipelineEvent, { type: TYPE }> } = {
  "pipeline-start": { type: "pipeline-start", question: "Which cities are in France?" },
  "catalog-start": { type: "catalog-start" },
  "catalog-end": { type: "catalog-end", tables: 3, columns: 12, source: "introspection" },
  "keywords-start": { type: "keywords-start" },
  "keywords-end": { type: "keywords-end", keywords: ["cities", "France"], source: "model" },
  "values-start": { type: "values-start", keywords: 2 },
  "values-end": {
    type: "values-end",
    values: [{ keyword: "France", table: "world.country", column: "name", value: "France" }],
  },
  "context-start": { type: "context-start" },
  "context-end": { type: "context-end", hits: [{ table: "world.city" }, { table: "world.country", column: "name" }] },
  "crush-start": { type: "crush-start", budget: 30 },
  "crush-end": { type: "crush-end", hallucinated: ["city.name", "country.name"], columns: 9 },
  "schema-start": { type: "schema-start", tables: 3, columns: 12 },
  "schema-end": { type: "schema-end", tables: 2, columns: 5 },
  "readings-end": {
    type: "readings-end",
    readings: [
      { phrase: "name", meaning: "world.city.name" },
      { phrase: "name", meaning: "world.city.local_name" },
    ],
    followed: [],
  },
  "candidate-start": { type: "candidate-start", candidate: 0, generator: "one-shot", sample: 0 },
  "candidate-end": { type: "candidate-end", candidate: 0, sql: "SELECT name FROM world.city", ok: true, rows: 4 },
  "fix-start": { type: "fix-start", candidate: 0, attempt: 1, reason: "empty result" },
  "fix-end": { type: "fix-end", candidate: 0, attempt: 1, sql: "SELECT name FROM world.city" },
  "selection-start": { type: "selection-start", candidates: 3, clusters: 2, selector: "pairwise" },
  "selection-end": {
    type: "selection-end",
    sql: "SELECT name FROM world.city",
    confidence: 0.75,
    candidates: 3,
    clusters: 2,
    selector: "pairwise",
    basis: "won 3 of 4 pairwise comparisons",
  },
  "summary-start": { type: "summary-start", rows: 4 },
  "summary-end": { type: "summary-end", sentence: "Four cities in France are listed." },
  "llm-call-start": { type: "llm-call-start", step: "generate-candidate" },
  "llm-call-end": {
    type: "llm-call-end",
    call: {
      step: "generate-candidate",
      model: "scripted:demo.json",
      scripted: true,
      inputTokens: 120,
      outputTokens: 30,
      latencyMilliseconds: 5,
    },
  },
  "pipeline-end": { type: "pipeline-end", sql: "SELECT name FROM world.city", rows: 4, elapsedMilliseconds: 40 },
};
