import { NlqError } from "@nlq/engine";
import { errorData } from "./error-data";
import { checkSameOrigin } from "./same-origin";
import { cookieValue, sessionCookieName } from "./session-cookie";
import { SignInRequiredError } from "./web-errors";
import { loadWebSettings } from "./web-settings";
import { currentWebUser, type WebUser } from "./web-user";

/** The user of an API request, or the response that refuses it. */
export type Authorization = { readonly user: WebUser } | { readonly user?: undefined; readonly response: Response };

/**
 * Checks an API request: a state-changing method must come from this site (403, SQLSTATE 42501, otherwise), and there
 * must be a user: the signed-in session of the cookie, or single-user mode (401, SQLSTATE 28000, otherwise). A bad
 * configuration is answered 500 with its typed error.
 */
export async function authorizeRequest(request: Request): Promise<Authorization> {
  try {
    if (request.method !== "GET" && request.method !== "HEAD") checkSameOrigin(request);
    const user = await currentWebUser(
      cookieValue(request.headers.get("cookie"), sessionCookieName),
      loadWebSettings(process.env),
    );
    if (!user) throw new SignInRequiredError();
    return { user };
  } catch (error) {
    return { response: errorResponse(error) };
  }
}

/** A JSON error response with the status that fits the error's SQLSTATE. */
export function errorResponse(error: unknown): Response {
  const data = errorData(error);
  const status = NlqError.isInstance(error)
    ? data.code === "42501"
      ? 403
      : data.code.startsWith("28")
        ? 401
        : data.code === "08001"
          ? 503
          : data.code === "F0000"
            ? 500
            : 400
    : 500;
  return Response.json({ error: data }, { status });
}
