import { NlqError, quotedPrefix } from "@nlq/engine";

/** Exit code of a command refused for its input (bad option value, empty question), as commander's usage errors. */
export const USAGE_EXIT_CODE = 2;

/**
 * A command-line input is unusable (a `--url` that is not a PostgreSQL URL, an empty question). Reported before any
 * work, with exit code `USAGE_EXIT_CODE`. SQLSTATE 22023 (invalid_parameter_value).
 */
export class UsageError extends NlqError {
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
 * Checks a database URL before anything connects: a `postgres://` or `postgresql://` URL with a host (node-postgres
 * would otherwise read `not-a-url` as a path below the host `base` and fail with `getaddrinfo ENOTFOUND base`).
 * `source` names where it came from (`--url`, `DATABASE_URL`). Throws `UsageError` naming the URL, password redacted.
 */
export function checkDatabaseUrl(text: string, source: string): string {
  const expected = `${source} must be a postgresql://user@host:port/database URL, got ${redactedUrl(text)}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(expected);
  }
  if (!postgresProtocols.has(url.protocol)) throw new UsageError(expected);
  if (url.hostname === "" && !url.searchParams.has("host")) {
    throw new UsageError(`${source} names no host: ${redactedUrl(text)} (e.g. postgresql://user@127.0.0.1:5432/db)`);
  }
  return text;
}

/** Checks a question before any work: not empty nor only spaces. Returns it trimmed; throws `UsageError`. */
export function checkQuestionText(question: string): string {
  const trimmed = question.trim();
  if (trimmed === "") throw new UsageError('the question is empty: nlq ask "how many customers are there?"');
  return trimmed;
}
