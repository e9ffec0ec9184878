import { type DestinationStream, pino } from "pino";

/** Where the proxy writes its log lines. Structured fields are optional. */
export interface ProxyLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/**
 * A logger writing one JSON object per line (pino): `{"level":"info","time":"2026-…Z","name":"nlq-proxy",
 * "msg":"…", …fields}`, the time in ISO 8601 UTC, an `error` field serialised with its name, message and stack.
 * Writes synchronously, so a line logged just before the process exits is not lost.
 */
export function createJsonLogger(destination: DestinationStream): ProxyLogger {
  const logger = pino(
    {
      name: "nlq-proxy",
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { error: pino.stdSerializers.err },
    },
    destination,
  );
  return {
    info: (message, fields) => logger.info(fields ?? {}, message),
    warn: (message, fields) => logger.warn(fields ?? {}, message),
    error: (message, fields) => logger.error(fields ?? {}, message),
  };
}

/** Logs to stderr as JSON lines (`createJsonLogger`). */
export const consoleLogger: ProxyLogger = createJsonLogger(pino.destination({ fd: 2, sync: true }));

/** Drops every entry (tests). */
export const silentLogger: ProxyLogger = { info: () => {}, warn: () => {}, error: () => {} };
