import { ConfigurationError } from "@nlq/engine";

/** A registered tracer provider: `shutdown` exports the spans still buffered and stops it. */
export interface TracingHandle {
  /** Where spans are sent (`…/v1/traces`). */
  readonly url: string;
  shutdown(): Promise<void>;
}

export interface StartTracingOptions {
  /** `service.name` of the spans unless `OTEL_SERVICE_NAME` (or `OTEL_RESOURCE_ATTRIBUTES`) says otherwise. */
  readonly serviceName: string;
}

/**
 * The OTLP/HTTP traces URL the environment asks for, or undefined when tracing is off: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`
 * as given, else `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces` (the OpenTelemetry specification's rule); off when
 * neither is set or `OTEL_SDK_DISABLED=true`. Throws `ConfigurationError` for a value that is not an http(s) URL.
 */
export function tracesUrl(environment: Readonly<Record<string, string | undefined>>): string | undefined {
  if (environment.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return undefined;
  const traces = environment.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const base = environment.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  const [variable, url] = traces
    ? ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", traces]
    : base
      ? ["OTEL_EXPORTER_OTLP_ENDPOINT", `${base.replace(/\/+$/, "")}/v1/traces`]
      : [undefined, undefined];
  if (variable === undefined || url === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigurationError(`${variable} must be an http:// or https:// URL, got "${url.slice(0, 80)}"`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new ConfigurationError(`${variable} must be an http:// or https:// URL, got a ${parsed.protocol} URL`);
  }
  return parsed.toString();
}

/**
 * Registers an OpenTelemetry tracer provider exporting by OTLP/HTTP when the environment asks for it (`tracesUrl`),
 * so the engine's spans (`nlq.answer_question`, one per stage) and the AI SDK's `gen_ai` spans leave the process;
 * returns undefined and loads nothing otherwise — the SDK and exporter are imported only here, only then. Spans are
 * batched; `OTEL_EXPORTER_OTLP_HEADERS` and the other `OTEL_EXPORTER_OTLP_*` variables are read by the exporter.
 * Call `shutdown` before the process ends to send what is buffered.
 */
export async function startTracing(
  environment: Readonly<Record<string, string | undefined>>,
  options: StartTracingOptions,
): Promise<TracingHandle | undefined> {
  const url = tracesUrl(environment);
  if (url === undefined) return undefined;
  const [{ BatchSpanProcessor, NodeTracerProvider }, { OTLPTraceExporter }, resources] = await Promise.all([
    import("@opentelemetry/sdk-trace-node"),
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/resources"),
  ]);
  const resource = resources
    .defaultResource()
    .merge(resources.resourceFromAttributes({ "service.name": options.serviceName }))
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }))],
  });
  provider.register();
  return { url, shutdown: () => provider.shutdown() };
}
