import { NlqError } from "@nlq/engine";
import type { ErrorData } from "./chat-message";

/** SQLSTATE of errors the page may not see the details of (internal_error). */
const internalErrorCode = "XX000";

/**
 * What the page is told about a failure. Typed errors of @nlq/engine (and the web app's own subclasses)
 * carry a SQLSTATE and a message written for users; anything else is reported as a generic internal
 * error so stack traces and connection strings never reach the browser.
 */
export function errorData(error: unknown): ErrorData {
  if (error instanceof NlqError) {
    const context = error as NlqError & { sql?: unknown; detail?: unknown; hint?: unknown };
    return {
      code: error.code,
      name: error.name,
      message: withoutServerPaths(error.message),
      ...(typeof context.sql === "string" && context.sql !== "" ? { sql: context.sql } : {}),
      ...(typeof context.detail === "string" && context.detail !== ""
        ? { detail: withoutServerPaths(context.detail) }
        : {}),
      ...(typeof context.hint === "string" && context.hint !== "" ? { hint: withoutServerPaths(context.hint) } : {}),
    };
  }
  return { code: internalErrorCode, name: "InternalError", message: "The question failed with an internal error." };
}

/** An absolute file path of the server (two or more segments, optionally a `file://` URL), e.g. `/srv/nlq/fixtures/a.json`. */
const serverPath = /(?:file:\/\/|(?<![\w.:/]))\/(?:[\w.@+-]+\/)+([\w.@+-]+)/g;

/** The text with each absolute server path reduced to its file name: the page never learns the server's layout. */
export function withoutServerPaths(text: string): string {
  return text.replace(serverPath, (_match, fileName: string) => fileName);
}
