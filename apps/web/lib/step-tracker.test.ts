import { type PipelineEvent, pipelineSteps } from "@nlq/engine";
import { oneEventOfEachType } from "@nlq/engine/testing";
import { describe, expect, it } from "vitest";
import { createStepTracker } from "./step-tracker";

describe("createStepTracker", () => {
  it("opens the schema step at catalog-start and closes it at catalog-end under the same id", () => {
    const tracker = createStepTracker();
    expect(tracker.next({ type: "pipeline-start", question: "how many customers?" })).toEqual([]);
    expect(tracker.next({ type: "catalog-start" })).toEqual([
      { type: "data-step", id: "catalog", data: { label: "Reading the schema", status: "running" } },
    ]);
    expect(tracker.next({ type: "catalog-end", tables: 3, columns: 1, source: "introspection" })).toEqual([
      {
        type: "data-step",
        id: "catalog",
        data: { label: "Read the schema", status: "done", detail: "3 tables, 1 column (introspected)" },
      },
    ]);
    expect(tracker.finish("done")).toEqual([]);
  });

  it("shows a step running only from its own start event, and done at its end", () => {
    const tracker = createStepTracker();
    tracker.next({ type: "catalog-start" });
    // A later stage's event does not close the schema step: only catalog-end (or finish) does.
    const parts = tracker.next({ type: "keywords-start" });
    expect(parts.map((part) => [part.id, part.data.label, part.data.status])).toEqual([
      ["keywords", "Extracting keywords", "running"],
    ]);
    const ended = tracker.next({ type: "keywords-end", keywords: ["customers", "count"], source: "model" });
    expect(ended.map((part) => [part.id, part.data.status, part.data.detail])).toEqual([
      ["keywords", "done", "customers, count"],
    ]);
    expect(tracker.finish("failed").map((part) => [part.id, part.data.label, part.data.status])).toEqual([
      ["catalog", "Read the schema", "failed"],
    ]);
  });

  it("runs every event type through one step that goes running → done, and leaves nothing running", () => {
    const tracker = createStepTracker();
    const shown = Object.values(oneEventOfEachType).flatMap((event) =>
      tracker.next(event).map((part) => `${event.type} → ${part.id}:${part.data.status}`),
    );
    expect(shown).toEqual([
      "catalog-start → catalog:running",
      "catalog-end → catalog:done",
      "keywords-start → keywords:running",
      "keywords-end → keywords:done",
      "values-start → values:running",
      "values-end → values:done",
      "context-start → context:running",
      "context-end → context:done",
      "crush-start → crush:running",
      "crush-end → crush:done",
      "schema-start → schema:running",
      "schema-end → schema:done",
      "readings-end → readings:done",
      "candidate-start → candidate-0:running",
      "candidate-end → candidate-0:done",
      "fix-start → fix-0-1:running",
      "fix-end → fix-0-1:done",
      "selection-start → selection:running",
      "selection-end → selection:done",
      "summary-start → summary:running",
      "summary-end → summary:done",
      "pipeline-end → result:done",
    ]);
    expect(tracker.finish("done")).toEqual([]);
    expect(tracker.languageModelCalls).toBe(1);
  });

  it("shows the summary step done, and says why when the answer has no sentence", () => {
    const tracker = createStepTracker();
    const data = (event: PipelineEvent) => tracker.next(event).map((part) => part.data);
    expect(data({ type: "summary-start", rows: 3 })).toEqual([{ label: "Summarizing the answer", status: "running" }]);
    expect(data({ type: "summary-end", sentence: "Three rows." })).toEqual([
      { label: "Summarized the answer", status: "done" },
    ]);
    expect(data({ type: "summary-end", omittedReason: "no scripted response for summarize-answer" })).toEqual([
      { label: "No plain-language answer", status: "done", detail: "no scripted response for summarize-answer" },
    ]);
  });

  it("labels the new stages, model steps from the step registry", () => {
    const tracker = createStepTracker();
    const data = (event: PipelineEvent) => tracker.next(event).map((part) => part.data);
    expect(data({ type: "values-start", keywords: 2 })).toEqual([
      { label: "Matching database values", status: "running", detail: "2 keywords" },
    ]);
    expect(data({ type: "context-start" })).toEqual([
      { label: "Searching table and column descriptions", status: "running" },
    ]);
    expect(
      data({ type: "context-end", hits: [{ table: "world.city" }, { table: "world.country", column: "name" }] }),
    ).toEqual([
      { label: "Searched table and column descriptions", status: "done", detail: "world.city, world.country.name" },
    ]);
    expect(data({ type: "crush-start", budget: 30 })).toEqual([
      { label: pipelineSteps["hallucinate-schema"].label, status: "running", detail: "at most 30 columns" },
    ]);
    expect(data({ type: "crush-end", hallucinated: ["city.name"], columns: 1 })).toEqual([
      { label: "Chose a schema subset", status: "done", detail: "1 column for city.name" },
    ]);
    expect(data({ type: "schema-start", tables: 4, columns: 1 })).toEqual([
      { label: "Selecting the relevant schema", status: "running", detail: "from 4 tables, 1 column" },
    ]);
    expect(data({ type: "selection-start", candidates: 3, clusters: 2, selector: "pairwise" })).toEqual([
      { label: "Choosing the answer", status: "running", detail: "2 distinct results among 3 candidates" },
    ]);
    expect(data({ type: "llm-call-start", step: "select-tables" })).toEqual([]);
    expect(tracker.finish("failed").map((part) => part.data.label)).toEqual([
      "Matched database values",
      "Selected the relevant schema",
      "Chose the answer",
    ]);
  });

  it("turns a candidate's start and end into one step that goes running → done or failed", () => {
    const tracker = createStepTracker();
    const [started] = tracker.next({
      type: "candidate-start",
      candidate: 1,
      generator: "divide-and-conquer",
      sample: 0,
    });
    expect(started).toMatchObject({
      id: "candidate-1",
      data: { label: "Writing SQL candidate 2", status: "running", detail: "divide-and-conquer" },
    });
    const [ended] = tracker.next({ type: "candidate-end", candidate: 1, sql: "select 1", ok: true, rows: 1 });
    expect(ended).toMatchObject({
      id: "candidate-1",
      data: { label: "SQL candidate 2", status: "done", detail: "ran, 1 row" },
    });
    tracker.next({ type: "candidate-start", candidate: 2, generator: "query-plan", sample: 1 });
    const [failed] = tracker.next({
      type: "candidate-end",
      candidate: 2,
      sql: "select nope",
      ok: false,
      error: 'column "nope" does not exist',
    });
    expect(failed).toMatchObject({
      id: "candidate-2",
      data: { status: "failed", detail: 'column "nope" does not exist' },
    });
  });

  it("shows fixes, selection and the final run, and counts model calls without showing them", () => {
    const tracker = createStepTracker();
    const events: PipelineEvent[] = [
      { type: "fix-start", candidate: 1, attempt: 1, reason: "42703: column does not exist" },
      { type: "fix-end", candidate: 1, attempt: 1, sql: "select 2" },
      {
        type: "llm-call-end",
        call: {
          step: "fix",
          model: "scripted:x",
          scripted: true,
          inputTokens: 1,
          outputTokens: 1,
          latencyMilliseconds: 1,
        },
      },
      {
        type: "selection-end",
        sql: "select 2",
        confidence: 0.667,
        candidates: 3,
        clusters: 2,
        selector: "self-consistency",
        basis: "2 of 3 candidates returned this result",
      },
      { type: "pipeline-end", sql: "select 2", rows: 12, elapsedMilliseconds: 40 },
    ];
    const parts = events.flatMap((event) => tracker.next(event));
    expect(parts.map((part) => `${part.id}:${part.data.status}:${part.data.detail ?? ""}`)).toEqual([
      "fix-1-1:running:42703: column does not exist",
      "fix-1-1:done:",
      "selection:done:confidence 67% (2 of 3 candidates returned this result)",
      "result:done:12 rows, 40 ms from question to answer",
    ]);
    expect(parts.at(-1)?.data.label).toBe("Answered");
    expect(tracker.languageModelCalls).toBe(1);
  });

  it("words selection without selector jargon and failures without step names or server paths", () => {
    const tracker = createStepTracker();
    const [selection] = tracker.next({
      type: "selection-end",
      sql: "select 1",
      confidence: 1,
      candidates: 3,
      clusters: 1,
      selector: "single",
      basis: "",
    });
    expect(selection?.data.detail).toBe("confidence 100% (every candidate returned the same rows)");
    tracker.next({ type: "candidate-start", candidate: 0, generator: "one-shot", sample: 0 });
    const [failed] = tracker.next({
      type: "candidate-end",
      candidate: 0,
      sql: "",
      ok: false,
      error:
        'scripted model has no response for step "generate-candidate" and question "x" in /srv/nlq/demo-model.json',
    });
    expect(failed?.data.detail).toBe("no recorded answer for this question (scripted demo)");
    tracker.next({ type: "candidate-start", candidate: 1, generator: "one-shot", sample: 0 });
    const [other] = tracker.next({
      type: "candidate-end",
      candidate: 1,
      sql: "",
      ok: false,
      error: 'language-model call for step "generate-candidate" failed: timeout reading /srv/nlq/cache/x.json',
    });
    expect(other?.data.detail).toBe("language-model call failed: timeout reading x.json");
    const [slow] = tracker.next({ type: "pipeline-end", sql: "select 1", rows: 1, elapsedMilliseconds: 2_240 });
    expect(slow?.data.detail).toBe("1 row, 2.2 s from question to answer");
  });

  it("marks every step still running as failed when the question fails", () => {
    const tracker = createStepTracker();
    tracker.next({ type: "pipeline-start", question: "q" });
    tracker.next({ type: "catalog-start" });
    const closed = tracker.finish("failed");
    expect(closed.map((part) => [part.id, part.data.status])).toEqual([["catalog", "failed"]]);
    tracker.next({ type: "candidate-start", candidate: 1, generator: "one-shot", sample: 0 });
    expect(tracker.finish("failed").map((part) => [part.id, part.data.label, part.data.status])).toEqual([
      ["candidate-1", "SQL candidate 2", "failed"],
    ]);
    expect(tracker.finish("failed")).toEqual([]);
  });

  it("closes a fix still running with its finished label", () => {
    const tracker = createStepTracker();
    const parts = tracker.next({ type: "fix-start", candidate: 1, attempt: 1, reason: "empty result" });
    expect(parts.map((part) => [part.id, part.data.label, part.data.status])).toEqual([
      ["fix-1-1", "Fixing candidate 2 (attempt 1)", "running"],
    ]);
    expect(tracker.finish("failed").map((part) => part.data.label)).toEqual(["Fix of candidate 2 (attempt 1)"]);
  });

  it("keeps server paths and step names out of every detail, not only failures", () => {
    const tracker = createStepTracker();
    const [keywords] = tracker.next({
      type: "keywords-end",
      keywords: ["orders"],
      source: "heuristic",
      fallbackReason: 'no response for step "extract-keywords" in /srv/nlq/fixtures/demo-model.json',
    });
    expect(keywords?.data.detail).toBe("orders (heuristic, no model: no response in demo-model.json)");
    const [summary] = tracker.next({ type: "summary-end", omittedReason: "cannot read /srv/nlq/cache/answer.json" });
    expect(summary?.data.detail).toBe("cannot read answer.json");
  });

  it("shortens long details", () => {
    const tracker = createStepTracker();
    const [part] = tracker.next({ type: "fix-start", candidate: 1, attempt: 1, reason: "x".repeat(500) });
    expect(part?.data.detail?.length).toBe(160);
    expect(part?.data.detail?.endsWith("…")).toBe(true);
  });
});
