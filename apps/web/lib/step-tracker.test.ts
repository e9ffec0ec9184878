import type { PipelineEvent } from "@nlq/engine";
import { describe, expect, it } from "vitest";
import { createStepTracker } from "./step-tracker";

describe("createStepTracker", () => {
  it("opens the schema step at pipeline-start and closes it at catalog-end under the same id", () => {
    const tracker = createStepTracker();
    expect(tracker.next({ type: "pipeline-start", question: "how many customers?" })).toEqual([
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

  it("closes the opening step when the pipeline skips catalog-end", () => {
    const tracker = createStepTracker();
    tracker.next({ type: "pipeline-start", question: "q" });
    const parts = tracker.next({ type: "keywords-end", keywords: ["customers", "count"], source: "model" });
    expect(parts.map((part) => [part.id, part.data.status])).toEqual([
      ["catalog", "done"],
      ["keywords", "done"],
    ]);
    expect(parts[1]?.data.detail).toBe("customers, count");
  });

  it("turns a candidate's start and end into one step that goes running → done or failed", () => {
    const tracker = createStepTracker();
    const [started] = tracker.next({ type: "candidate-start", candidate: 1, generator: "divide-and-conquer" });
    expect(started).toMatchObject({
      id: "candidate-1",
      data: { label: "Writing SQL candidate 2", status: "running", detail: "divide-and-conquer" },
    });
    const [ended] = tracker.next({ type: "candidate-end", candidate: 1, sql: "select 1", ok: true, rows: 1 });
    expect(ended).toMatchObject({
      id: "candidate-1",
      data: { label: "SQL candidate 2", status: "done", detail: "ran, 1 row" },
    });
    tracker.next({ type: "candidate-start", candidate: 2, generator: "query-plan" });
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
      { type: "selection-end", sql: "select 2", confidence: 0.667, clusters: 2 },
      { type: "pipeline-end", sql: "select 2", rows: 12, elapsedMilliseconds: 40 },
    ];
    const parts = events.flatMap((event) => tracker.next(event));
    expect(parts.map((part) => `${part.id}:${part.data.status}:${part.data.detail ?? ""}`)).toEqual([
      "fix-1-1:running:42703: column does not exist",
      "fix-1-1:done:",
      "selection:done:2 distinct results, confidence 67%",
      "result:done:12 rows in 40 ms",
    ]);
    expect(tracker.languageModelCalls).toBe(1);
  });

  it("marks every step still running as failed when the question fails", () => {
    const tracker = createStepTracker();
    tracker.next({ type: "pipeline-start", question: "q" });
    const closed = tracker.finish("failed");
    expect(closed.map((part) => [part.id, part.data.status])).toEqual([["catalog", "failed"]]);
    tracker.next({ type: "candidate-start", candidate: 1, generator: "one-shot" });
    expect(tracker.finish("failed").map((part) => [part.id, part.data.label, part.data.status])).toEqual([
      ["candidate-1", "SQL candidate 2", "failed"],
    ]);
    expect(tracker.finish("failed")).toEqual([]);
  });

  it("closes the opening step at any later progress event", () => {
    const tracker = createStepTracker();
    tracker.next({ type: "pipeline-start", question: "q" });
    const parts = tracker.next({ type: "fix-start", candidate: 1, attempt: 1, reason: "empty result" });
    expect(parts.map((part) => [part.id, part.data.label, part.data.status])).toEqual([
      ["catalog", "Read the schema", "done"],
      ["fix-1-1", "Fixing candidate 2 (attempt 1)", "running"],
    ]);
    expect(tracker.finish("failed").map((part) => part.data.label)).toEqual(["Fix of candidate 2 (attempt 1)"]);
  });

  it("shortens long details", () => {
    const tracker = createStepTracker();
    const [part] = tracker.next({ type: "fix-start", candidate: 1, attempt: 1, reason: "x".repeat(500) });
    expect(part?.data.detail?.length).toBe(160);
    expect(part?.data.detail?.endsWith("…")).toBe(true);
  });
});
