import type { TracingHandle } from "@nlq/adapters";

type Environment = Readonly<Record<string, string | undefined>>;

/** Whether the environment asks for traces (checked without loading anything). */
export function tracingRequested(environment: Environment): boolean {
  return Boolean(
    environment.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || environment.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim(),
  );
}

/**
 * Starts OpenTelemetry for this `nlq` process when `OTEL_EXPORTER_OTLP_ENDPOINT` (or `…_TRACES_ENDPOINT`) is set:
 * the adapters' `startTracing` (SDK and OTLP exporter) is imported only then, so a process without it loads and pays
 * nothing. A bad endpoint is reported on stderr and the command runs untraced: tracing never stops a command.
 */
export async function startProcessTracing(
  environment: Environment,
  serviceName: string,
  writeError: (text: string) => void,
): Promise<TracingHandle | undefined> {
  if (!tracingRequested(environment)) return undefined;
  try {
    const { startTracing } = await import("@nlq/adapters");
    return await startTracing(environment, { serviceName });
  } catch (error) {
    writeError(`nlq: tracing is off: ${error instanceof Error ? error.message : String(error)}\n`);
    return undefined;
  }
}
