import type { ErrorData } from "./chat-message";

/**
 * The typed error of a refused chat request. The AI SDK's transport throws an `Error` whose message is the response
 * body; the server answers a refused request (400 too long, 401 session ended, 403, 500 configuration) with
 * `{ "error": ErrorData }`. Undefined when the message is not such a body (the request never reached the server).
 */
export function responseError(error: Error | undefined): ErrorData | undefined {
  if (!error) return undefined;
  try {
    const body = JSON.parse(error.message) as { error?: Partial<ErrorData> } | null;
    const data = body?.error;
    if (typeof data?.code !== "string" || typeof data.message !== "string") return undefined;
    return {
      ...data,
      code: data.code,
      message: data.message,
      name: typeof data.name === "string" ? data.name : "Error",
    };
  } catch {
    return undefined;
  }
}

/** Session storage keys: the question to put back after signing in again, and the notice for the sign-in form. */
export const pendingQuestionKey = "nlq:pending-question";
export const sessionEndedKey = "nlq:session-ended";

/** The stored form of a question kept across a new sign-in: it names the role that typed it. */
export function pendingQuestionValue(role: string, question: string): string {
  return JSON.stringify({ role, question });
}

/**
 * The kept question to put back for `role`: only the role that typed it gets it back (the tab may be signed in as
 * another role now); anything else stored there (another role's, or unreadable) gives nothing.
 */
export function restoredPendingQuestion(stored: string | null, role: string): string | undefined {
  if (!stored) return undefined;
  try {
    const value: unknown = JSON.parse(stored);
    if (typeof value !== "object" || value === null) return undefined;
    const { role: author, question } = value as { role?: unknown; question?: unknown };
    return author === role && typeof question === "string" && question !== "" ? question : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the refusal means the sign-in session is gone (SQLSTATE class 28, invalid authorization). */
export function sessionEnded(error: ErrorData | undefined): boolean {
  return error?.reason === "session-ended" || (error?.code.startsWith("28") ?? false);
}
