/**
 * Next.js calls `register` once when the server starts. With `OTEL_EXPORTER_OTLP_ENDPOINT` set, the web app exports
 * its traces (the engine's question and stage spans, the AI SDK's gen_ai spans) by OTLP, as every `nlq` process does;
 * unset, nothing is loaded. Node.js runtime only (the edge runtime runs no question).
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (!process.env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() && !process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim()) {
    return;
  }
  const { startWebTracing } = await import("./lib/web-tracing");
  await startWebTracing();
}
