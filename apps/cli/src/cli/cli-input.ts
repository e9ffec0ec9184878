import { NlqError, quotedPrefix } from "@nlq/engine";

export { USAGE_EXIT_CODE } from "./usage-exit-code";

const usageErrorMarker = Symbol.for("nlq.error.UsageError");

/**
 * A command-line input is unusable (a `--url` that is not a PostgreSQL URL, an empty question). Reported before any
 * work, with exit code `USAGE_EXIT_CODE`. SQLSTATE 22023 (invalid_parameter_value).
 */
export class UsageError extends NlqError {
  readonly [usageErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is UsageError {
    return NlqError.hasMarker(error, usageErrorMarker);
  }

  constructor(message: string) {
    super(message, { code: "22023" });
  }
}

const postgresProtocols = new Set(["postgres:", "postgresql:"]);

/** `text` with the password of a URL (or of anything shaped `user:password@`) replaced by `***`, quoted and capped. */
export function redactedUrl(text: string): string {
  let shown = text;
  try {
    const url = new URL(text);
    if (url.password) {
      url.password = "***";
      shown = url.toString();
    }
  } catch {
    // Not a URL: the pattern below still hides a `user:password@` part.
  }
  return quotedPrefix(shown.replace(/:[^:@/]*@/, ":***@"));
}

/**
 * What is wrong with a database URL, as the end of a sentence that starts with its source (`must be a postgresql://…
 * URL, got "…"`, `names no host: "…"`), password redacted; undefined for a `postgres://` or `postgresql://` URL with
 * a host (node-postgres would otherwise read `not-a-url` as a path below the host `base` and fail with
 * `getaddrinfo ENOTFOUND base`).
 */
export function databaseUrlProblem(text: string): string | undefined {
  const expected = `must be a postgresql://user@host:port/database URL, got ${redactedUrl(text)}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return expected;
  }
  if (!postgresProtocols.has(url.protocol)) return expected;
  if (url.hostname === "" && !url.searchParams.has("host")) {
    return `names no host: ${redactedUrl(text)} (e.g. postgresql://user@127.0.0.1:5432/db)`;
  }
  return undefined;
}

/**
 * Checks a database URL before anything connects (`databaseUrlProblem`). `source` names where it came from (`--url`,
 * `DATABASE_URL`). Throws `UsageError` naming the source and the URL, password redacted.
 */
export function checkDatabaseUrl(text: string, source: string): string {
  const problem = databaseUrlProblem(text);
  if (problem !== undefined) throw new UsageError(`${source} ${problem}`);
  return text;
}
