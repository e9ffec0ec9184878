import { describe, expect, it } from "vitest";
import { pipelineSteps } from "../steps/step-registry";
import { oneEventOfEachType } from "../testing/one-event-of-each-type";
import { describeProgressStep } from "./describe-progress-step";
import { progressStepLine } from "./progress-step";

describe("describeProgressStep", () => {
  it("describes every event type: one step id from start to end, a line where one is worth it", () => {
    const described = Object.fromEntries(
      Object.values(oneEventOfEachType).map((event) => {
        const step = describeProgressStep(event);
        return [
          event.type,
          step && `${step.step} ${step.status}${step.worthALine ? "" : " (no line)"}: ${progressStepLine(step)}`,
        ];
      }),
    );
    expect(described).toEqual({
      "pipeline-start": undefined,
      "catalog-start": "catalog running (no line): Reading the schema",
      "catalog-end": "catalog done: Read the schema: 3 tables, 12 columns (introspected)",
      "keywords-start": "keywords running (no line): Extracting keywords",
      "keywords-end": "keywords done: Extracted keywords: cities, France",
      "values-start": "values running (no line): Matching database values: 2 keywords",
      "values-end": "values done: Matched database values: France → world.country.name = 'France'",
      "context-start": "context running (no line): Searching table and column descriptions",
      "context-end": "context done: Searched table and column descriptions: world.city, world.country.name",
      "crush-start": "crush running: Hallucinating a minimal schema: at most 30 columns",
      "crush-end": "crush done: Chose a schema subset: 9 columns for city.name, country.name",
      "schema-start": "schema running: Selecting the relevant schema: from 3 tables, 12 columns",
      "schema-end": "schema done: Selected the relevant schema: 2 tables, 5 columns",
      "readings-end":
        "readings done: Looked for other readings of the question: «name» may mean world.city.name or world.city.local_name (candidates for each)",
      "candidate-start": "candidate-0 running: Writing SQL candidate 1: one-shot",
      "candidate-end": "candidate-0 done: SQL candidate 1: ran, 4 rows",
      "fix-start": "fix-0-1 running: Fixing candidate 1 (attempt 1): empty result",
      "fix-end": "fix-0-1 done (no line): Revised candidate 1 (attempt 1)",
      "selection-start": "selection running: Choosing the answer: 2 distinct results among 3 candidates",
      "selection-end": "selection done: Chose the answer: confidence 75% (won 3 of 4 pairwise comparisons)",
      "summary-start": "summary running (no line): Summarizing the answer",
      "summary-end": "summary done (no line): Summarized the answer",
      "llm-call-start": "model-call running: Model call generate-candidate: Writing SQL…",
      "llm-call-end": "model-call done: Model call generate-candidate: scripted:demo.json (scripted replay), 5 ms",
      "pipeline-end": "result done (no line): Answered: 4 rows, 40 ms from question to answer",
    });
  });

  it("gives each running step the label it takes once it ends", () => {
    const ended = Object.values(oneEventOfEachType).flatMap((event) => {
      const step = describeProgressStep(event);
      return step?.status === "running" ? [`${step.step}: ${step.endLabel}`] : [];
    });
    expect(ended).toEqual([
      "catalog: Read the schema",
      "keywords: Extracted keywords",
      "values: Matched database values",
      "context: Searched table and column descriptions",
      "crush: Chose a schema subset",
      "schema: Selected the relevant schema",
      "candidate-0: SQL candidate 1",
      "fix-0-1: Fix of candidate 1 (attempt 1)",
      "selection: Chose the answer",
      "summary: Summarized the answer",
      "model-call: Model call generate-candidate",
    ]);
    expect(describeProgressStep({ type: "llm-call-start", step: "filter-column" })?.detail).toBe(
      `${pipelineSteps["filter-column"].label}…`,
    );
  });

  it("marks a failed candidate and a failed model call as failed, with the failure as detail", () => {
    const candidate = describeProgressStep({ type: "candidate-end", candidate: 2, sql: "x", ok: false, error: "boom" });
    expect(candidate).toMatchObject({ step: "candidate-2", status: "failed", detail: "boom", worthALine: true });
    expect(candidate && progressStepLine(candidate)).toBe("SQL candidate 3 failed: boom");
    const call = describeProgressStep({
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
    });
    expect(call && progressStepLine(call)).toBe(
      "Model call select-candidate failed: openai:gpt-4o-mini (unreadable-output), 700 ms",
    );
    expect(describeProgressStep({ type: "candidate-end", candidate: 0, sql: "x", ok: true })?.detail).toBe("ran");
  });

  it("groups values by keyword and says when a heuristic replaced the model, and why", () => {
    expect(
      describeProgressStep({
        type: "values-end",
        values: [
          { keyword: "Rotterdm", table: "world_1.city", column: "name", value: "Rotterdam" },
          { keyword: "Pari", table: "world_1.city", column: "name", value: "Paris" },
          { keyword: "Rotterdm", table: "world_1.city", column: "district", value: "Zuid-Holland" },
        ],
      })?.detail,
    ).toBe(
      "Rotterdm → world_1.city.name = 'Rotterdam', world_1.city.district = 'Zuid-Holland'; Pari → world_1.city.name = 'Paris'",
    );
    expect(describeProgressStep({ type: "values-end", values: [] })?.detail).toBe("no matching values");
    expect(
      describeProgressStep({ type: "keywords-end", keywords: [], source: "heuristic", fallbackReason: "no response" })
        ?.detail,
    ).toBe("none (heuristic, no model: no response)");
    expect(describeProgressStep({ type: "keywords-end", keywords: ["Pari"], source: "heuristic" })?.detail).toBe(
      "Pari (heuristic, no model)",
    );
    expect(
      describeProgressStep({ type: "crush-end", hallucinated: [], columns: 0, fallbackReason: "no scripted response" })
        ?.detail,
    ).toBe("0 columns (no hallucinated schema: no scripted response)");
  });

  it("names the first context hits and counts the rest", () => {
    expect(describeProgressStep({ type: "context-end", hits: [] })?.detail).toBe("no matching descriptions");
    const hits = Array.from({ length: 10 }, (_, index) => ({ table: `public.t${index}` }));
    expect(describeProgressStep({ type: "context-end", hits })?.detail).toBe(
      "public.t0, public.t1, public.t2, public.t3, public.t4, public.t5, public.t6, public.t7 and 2 more",
    );
  });

  it("speaks of a selection only when there is a choice, and words it without selector jargon", () => {
    expect(
      describeProgressStep({ type: "selection-start", candidates: 3, clusters: 1, selector: "single" })?.worthALine,
    ).toBe(false);
    const single = describeProgressStep({
      type: "selection-end",
      sql: "select 1",
      candidates: 1,
      clusters: 1,
      selector: "single",
      basis: "one candidate was written: nothing to compare",
    });
    expect(single).toMatchObject({ detail: "1 candidate", worthALine: false });
    const agreed = describeProgressStep({
      type: "selection-end",
      sql: "select 1",
      confidence: 1,
      candidates: 3,
      clusters: 1,
      selector: "single",
      basis: "",
    });
    expect(agreed?.detail).toBe("confidence 100% (every candidate returned the same rows)");
  });

  it("names a candidate's sample, the answer sentence's absence and the question's time", () => {
    expect(
      describeProgressStep({ type: "candidate-start", candidate: 4, generator: "query-plan", sample: 2 })?.detail,
    ).toBe("query-plan, sample 3");
    expect(describeProgressStep({ type: "summary-end", omittedReason: "no scripted response" })).toMatchObject({
      label: "No plain-language answer",
      status: "done",
      detail: "no scripted response",
      worthALine: true,
    });
    expect(describeProgressStep({ type: "summary-end" })).toMatchObject({
      label: "No plain-language answer",
      worthALine: false,
    });
    expect(
      describeProgressStep({ type: "pipeline-end", sql: "select 1", rows: 1, elapsedMilliseconds: 2_240 })?.detail,
    ).toBe("1 row, 2.2 s from question to answer");
    expect(describeProgressStep({ type: "catalog-end", tables: 1, columns: 1, source: "index" })?.detail).toBe(
      "1 table, 1 column (from the catalog index)",
    );
  });
});
