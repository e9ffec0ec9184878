import { type Attributes, type Context, type Span, SpanStatusCode, type Tracer, trace } from "@opentelemetry/api";
import type { PipelineEvent } from "../contract/events";

/** Span names of the pipeline's stages, one span per stage (per candidate for generation, per attempt for fixing). */
export const stageSpanNames = {
  catalog: "nlq.catalog",
  keywords: "nlq.keywords",
  values: "nlq.retrieval.values",
  context: "nlq.retrieval.context",
  crush: "nlq.retrieval.crush",
  schema: "nlq.schema_selection",
  candidate: "nlq.generation",
  fix: "nlq.fixing",
  selection: "nlq.selection",
  summary: "nlq.summary",
} as const;

/** Receives the pipeline's events and turns each stage's start/end pair into a span. */
export interface StageSpans {
  onEvent(event: PipelineEvent): void;
  /** Ends every span still open (a question that failed or was cancelled), marked as an error. */
  endOpen(reason: string): void;
}

/**
 * Stage spans from the pipeline's own progress events (`events.ts`): every `<stage>-start` opens a span under
 * `parent` (the question's root span) and its `<stage>-end` closes it with the stage's figures as `nlq.*` attributes —
 * so every stage is traced wherever it runs (the engine, or the adapters' indexed schema selection), without a
 * second set of hooks. A fixing span is the child of its candidate's generation span. Text that may hold data
 * values (SQL, errors, keywords) is recorded only with `recordContent`.
 */
export function createStageSpans(tracer: Tracer, parent: Context, recordContent: boolean): StageSpans {
  const open = new Map<string, Span>();
  const start = (key: string, name: string, attributes: Attributes = {}, within: Context = parent) => {
    open.set(key, tracer.startSpan(name, { attributes }, within));
  };
  const end = (key: string, attributes: Attributes = {}, failure?: string) => {
    const span = open.get(key);
    if (!span) return;
    open.delete(key);
    span.setAttributes(attributes);
    if (failure !== undefined) {
      span.setStatus({ code: SpanStatusCode.ERROR, ...(recordContent ? { message: failure } : {}) });
    }
    span.end();
  };
  const content = (attributes: Attributes): Attributes => (recordContent ? attributes : {});
  return {
    onEvent(event) {
      switch (event.type) {
        case "catalog-start":
          return start("catalog", stageSpanNames.catalog);
        case "catalog-end":
          return end("catalog", {
            "nlq.tables": event.tables,
            "nlq.columns": event.columns,
            "nlq.catalog.source": event.source,
          });
        case "keywords-start":
          return start("keywords", stageSpanNames.keywords);
        case "keywords-end":
          return end("keywords", {
            "nlq.keywords.count": event.keywords.length,
            "nlq.keywords.source": event.source,
            ...content({ "nlq.keywords": [...event.keywords] }),
          });
        case "values-start":
          return start("values", stageSpanNames.values, { "nlq.keywords.count": event.keywords });
        case "values-end":
          return end("values", { "nlq.values.count": event.values.length });
        case "context-start":
          return start("context", stageSpanNames.context);
        case "context-end":
          return end("context", { "nlq.context.hits": event.hits.length });
        case "crush-start":
          return start("crush", stageSpanNames.crush, { "nlq.crush.budget": event.budget });
        case "crush-end":
          return end("crush", { "nlq.columns": event.columns }, event.fallbackReason);
        case "schema-start":
          return start("schema", stageSpanNames.schema, {
            "nlq.schema.tables_in": event.tables,
            "nlq.schema.columns_in": event.columns,
          });
        case "schema-end":
          return end("schema", { "nlq.tables": event.tables, "nlq.columns": event.columns });
        case "candidate-start":
          return start(`candidate:${event.candidate}`, stageSpanNames.candidate, {
            "nlq.candidate": event.candidate,
            "nlq.generator": event.generator,
            "nlq.sample": event.sample,
          });
        case "candidate-end":
          return end(
            `candidate:${event.candidate}`,
            {
              "nlq.candidate.ok": event.ok,
              ...(event.rows === undefined ? {} : { "nlq.rows": event.rows }),
              ...content({ "db.query.text": event.sql }),
            },
            event.ok ? undefined : (event.error ?? "the candidate failed"),
          );
        case "fix-start": {
          const candidate = open.get(`candidate:${event.candidate}`);
          return start(
            `fix:${event.candidate}:${event.attempt}`,
            stageSpanNames.fix,
            {
              "nlq.candidate": event.candidate,
              "nlq.fix.attempt": event.attempt,
              ...content({ "nlq.fix.reason": event.reason }),
            },
            candidate ? trace.setSpan(parent, candidate) : parent,
          );
        }
        case "fix-end":
          return end(`fix:${event.candidate}:${event.attempt}`, content({ "db.query.text": event.sql }));
        case "selection-start":
          return start("selection", stageSpanNames.selection, {
            "nlq.candidates.executed": event.candidates,
            "nlq.clusters": event.clusters,
            "nlq.selector": event.selector,
          });
        case "selection-end":
          return end("selection", {
            "nlq.selector": event.selector,
            "nlq.candidates": event.candidates,
            "nlq.clusters": event.clusters,
            ...(event.confidence === undefined ? {} : { "nlq.confidence": event.confidence }),
            "nlq.selection.basis": event.basis,
          });
        case "summary-start":
          return start("summary", stageSpanNames.summary, { "nlq.rows": event.rows });
        case "summary-end":
          return end("summary", { "nlq.summary.written": event.sentence !== undefined }, event.omittedReason);
        case "pipeline-start":
        case "pipeline-end":
        case "readings-end":
        case "llm-call-start":
        case "llm-call-end":
          // The root span is the question's; model calls are the AI SDK's own `gen_ai` spans; the reading step takes no
          // time worth a span.
          return;
        default: {
          const unhandled: never = event;
          return unhandled;
        }
      }
    },
    endOpen(reason) {
      for (const key of [...open.keys()]) end(key, {}, reason);
    },
  };
}
