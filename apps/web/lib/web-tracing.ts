import { startTracing } from "@nlq/adapters";

/**
 * Registers the OpenTelemetry SDK for the web app's server (service name `nlq-web` unless `OTEL_SERVICE_NAME`), via
 * the adapters' `startTracing`. A bad endpoint is logged and the app runs untraced. Spans are exported in batches; on
 * shutdown, the last batch (at most a few seconds of spans) may be lost — Next.js owns the process's signals.
 */
export async function startWebTracing(): Promise<void> {
  try {
    const handle = await startTracing(process.env, { serviceName: "nlq-web" });
    if (handle) console.info(`nlq-web: exporting traces to ${handle.url}`);
  } catch (error) {
    console.error(`nlq-web: tracing is off: ${error instanceof Error ? error.message : String(error)}`);
  }
}
