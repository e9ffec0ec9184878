/** Where the proxy writes its log lines. Structured fields are optional. */
export interface ProxyLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** Logs to stderr, one line per entry, fields as JSON. */
export const consoleLogger: ProxyLogger = {
  info: (message, fields) => console.error(format("info", message, fields)),
  warn: (message, fields) => console.error(format("warn", message, fields)),
  error: (message, fields) => console.error(format("error", message, fields)),
};

/** Drops every entry (tests). */
export const silentLogger: ProxyLogger = { info: () => {}, warn: () => {}, error: () => {} };

function format(level: string, message: string, fields: Record<string, unknown> | undefined): string {
  const suffix = fields === undefined ? "" : ` ${JSON.stringify(fields, errorReplacer)}`;
  return `nlq proxy ${level}: ${message}${suffix}`;
}

function errorReplacer(_key: string, value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  return value;
}
