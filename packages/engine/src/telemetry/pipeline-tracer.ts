import { type Tracer, trace } from "@opentelemetry/api";

/** The instrumentation scope of nlq's own spans (the AI SDK's `gen_ai` spans carry the `ai` scope). */
export const tracerName = "@nlq/engine";

/**
 * The tracer of the pipeline's spans: whatever tracer provider the process registered (the CLI, proxy and web app
 * register one only when `OTEL_EXPORTER_OTLP_ENDPOINT` is set), else `@opentelemetry/api`'s no-op one — spans then
 * cost a few object allocations and are never recorded.
 */
export function pipelineTracer(): Tracer {
  return trace.getTracer(tracerName);
}

/** What the pipeline records in traces, decided once per question. */
export interface TelemetrySettings {
  /** True when the question's root span is recorded (a tracer provider is registered and sampled it). */
  readonly enabled: boolean;
  /**
   * `NLQ_TRACE_CONTENT`: also record the question, prompts, model outputs, SQL text and error messages (they hold
   * data values the asking role may read). Default off: spans carry names, counts, timings, models and token usage.
   */
  readonly recordContent: boolean;
}

/** No tracing: the default of a step context created outside `answerQuestion`. */
export const telemetryOff: TelemetrySettings = { enabled: false, recordContent: false };
