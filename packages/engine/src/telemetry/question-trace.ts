import { context, type Span, SpanStatusCode, trace } from "@opentelemetry/api";
import type { Answer } from "../contract/answer";
import type { PipelineEvent } from "../contract/events";
import { NlqError } from "../errors/nlq-error";
import { pipelineTracer, type TelemetrySettings, telemetryOff } from "./pipeline-tracer";
import { createStageSpans } from "./stage-spans";

/** The root span of one question: `nlq.answer_question`. */
export const questionSpanName = "nlq.answer_question";

/** One question's trace: its root span, the stage spans under it, and whether model calls join it. */
export interface QuestionTrace {
  /** What the step context passes to every model call (`experimental_telemetry`). */
  readonly telemetry: TelemetrySettings;
  /** Feeds the stage spans (a no-op when the question is not traced). */
  onEvent(event: PipelineEvent): void;
  /** Runs the question with the root span active, so the AI SDK's spans become its children. */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Ends the root span with the answer's figures. */
  succeed(answer: Answer): void;
  /** Ends every open span as failed, and the root span with the error's SQLSTATE and class. */
  fail(error: unknown): void;
}

export interface QuestionTraceOptions {
  readonly question: string;
  readonly origin: string;
  readonly preset: string;
  /** `NLQ_TRACE_CONTENT`: record the question, SQL, prompts and outputs too. */
  readonly recordContent: boolean;
}

const untraced: QuestionTrace = {
  telemetry: telemetryOff,
  onEvent() {},
  run: (work) => work(),
  succeed() {},
  fail() {},
};

/**
 * Starts the trace of one question. Without a registered tracer provider (or when the sampler drops it) the root span
 * does not record, and everything after is a no-op: no stage spans, no context switch, model calls with
 * `isEnabled: false` — tracing off costs one no-op span.
 */
export function startQuestionTrace(options: QuestionTraceOptions): QuestionTrace {
  const tracer = pipelineTracer();
  const root: Span = tracer.startSpan(questionSpanName, {
    attributes: {
      "nlq.origin": options.origin,
      "nlq.preset": options.preset,
      ...(options.recordContent ? { "nlq.question": options.question } : {}),
    },
  });
  if (!root.isRecording()) {
    root.end();
    return untraced;
  }
  const rootContext = trace.setSpan(context.active(), root);
  const stages = createStageSpans(tracer, rootContext, options.recordContent);
  return {
    telemetry: { enabled: true, recordContent: options.recordContent },
    onEvent: (event) => stages.onEvent(event),
    run: (work) => context.with(rootContext, work),
    succeed(answer) {
      stages.endOpen("the question ended before this stage did");
      root.setAttributes({
        "nlq.candidates": answer.selection.candidates,
        "nlq.candidates.executed": answer.selection.executed,
        "nlq.clusters": answer.selection.clusters,
        "nlq.selector": answer.selection.selector,
        ...(answer.confidence === undefined ? {} : { "nlq.confidence": answer.confidence }),
        "nlq.interpretations": answer.interpretations?.length ?? 0,
        "nlq.needs_choice": answer.needsChoice ?? false,
        "nlq.rows": answer.result.rows.length,
        "nlq.truncated": answer.truncated,
        "nlq.model": answer.model.id,
        "nlq.llm_calls": answer.calls.length,
        ...(options.recordContent ? { "db.query.text": answer.sql } : {}),
      });
      root.end();
    },
    fail(error) {
      const message = error instanceof Error ? error.message : String(error);
      stages.endOpen(options.recordContent ? message : "the question failed");
      root.setAttributes({
        "error.type": error instanceof Error ? error.name : "Error",
        ...(NlqError.isInstance(error) ? { "db.response.status_code": error.code } : {}),
      });
      root.setStatus({ code: SpanStatusCode.ERROR, ...(options.recordContent ? { message } : {}) });
      root.end();
    },
  };
}
