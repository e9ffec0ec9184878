import { ROOT_CONTEXT, trace } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import type { PipelineEventType } from "../contract/events";
import { oneEventOfEachType } from "../testing/one-event-of-each-type";
import { createStageSpans, stageSpanNames } from "./stage-spans";

function recorder(recordContent: boolean) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer("test");
  const root = tracer.startSpan("root");
  const stages = createStageSpans(tracer, trace.setSpan(ROOT_CONTEXT, root), recordContent);
  return { exporter, root, stages };
}

// The events of one question in the order the pipeline emits them.
const questionOrder: PipelineEventType[] = [
  "pipeline-start",
  "catalog-start",
  "catalog-end",
  "keywords-start",
  "llm-call-start",
  "llm-call-end",
  "keywords-end",
  "values-start",
  "values-end",
  "context-start",
  "context-end",
  "crush-start",
  "crush-end",
  "schema-start",
  "schema-end",
  "candidate-start",
  "fix-start",
  "fix-end",
  "candidate-end",
  "selection-start",
  "selection-end",
  "summary-start",
  "summary-end",
  "pipeline-end",
];

describe("createStageSpans", () => {
  it("opens and closes one span per stage, under the root; fixing under its candidate", () => {
    const { exporter, root, stages } = recorder(false);
    for (const type of questionOrder) stages.onEvent(oneEventOfEachType[type]);
    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.name)).toEqual([
      stageSpanNames.catalog,
      stageSpanNames.keywords,
      stageSpanNames.values,
      stageSpanNames.context,
      stageSpanNames.crush,
      stageSpanNames.schema,
      stageSpanNames.fix,
      stageSpanNames.candidate,
      stageSpanNames.selection,
      stageSpanNames.summary,
    ]);
    const rootId = root.spanContext().spanId;
    const byName = (name: string) => spans.find((span) => span.name === name)!;
    expect(byName(stageSpanNames.values).parentSpanContext?.spanId).toBe(rootId);
    expect(byName(stageSpanNames.fix).parentSpanContext?.spanId).toBe(
      byName(stageSpanNames.candidate).spanContext().spanId,
    );
    expect(byName(stageSpanNames.catalog).attributes).toEqual({
      "nlq.tables": 3,
      "nlq.columns": 12,
      "nlq.catalog.source": "introspection",
    });
    expect(byName(stageSpanNames.values).attributes).toEqual({ "nlq.keywords.count": 2, "nlq.values.count": 1 });
    expect(byName(stageSpanNames.selection).attributes).toMatchObject({ "nlq.confidence": 0.75, "nlq.clusters": 2 });
    // No content by default: no keywords, SQL or fix reasons.
    expect(byName(stageSpanNames.keywords).attributes["nlq.keywords"]).toBeUndefined();
    expect(byName(stageSpanNames.candidate).attributes["db.query.text"]).toBeUndefined();
    expect(byName(stageSpanNames.fix).attributes["nlq.fix.reason"]).toBeUndefined();
  });

  it("records keywords, SQL and fix reasons with recordContent", () => {
    const { exporter, stages } = recorder(true);
    for (const type of questionOrder) stages.onEvent(oneEventOfEachType[type]);
    const spans = exporter.getFinishedSpans();
    const byName = (name: string) => spans.find((span) => span.name === name)!;
    expect(byName(stageSpanNames.keywords).attributes["nlq.keywords"]).toEqual(["cities", "France"]);
    expect(byName(stageSpanNames.candidate).attributes["db.query.text"]).toBe("SELECT name FROM world.city");
    expect(byName(stageSpanNames.fix).attributes["nlq.fix.reason"]).toBe("empty result");
  });

  it("marks a failed candidate and ends the stages a failed question left open as errors", () => {
    const { exporter, stages } = recorder(false);
    stages.onEvent({ type: "candidate-start", candidate: 1, generator: "query-plan", sample: 0 });
    stages.onEvent({
      type: "candidate-end",
      candidate: 1,
      sql: "SELECT x",
      ok: false,
      error: "column x does not exist",
    });
    stages.onEvent({ type: "selection-start", candidates: 1, clusters: 1, selector: "single" });
    stages.endOpen("the question failed");
    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => [span.name, span.status.code, span.status.message])).toEqual([
      [stageSpanNames.candidate, 2, undefined],
      [stageSpanNames.selection, 2, undefined],
    ]);
  });
});
