import { z } from "zod";
import { errorResponse } from "./authorize-request";
import { errorData } from "./error-data";
import type { RoleSessions } from "./role-sessions";
import { checkSameOrigin, isSecureRequest } from "./same-origin";
import { sealSessionId, sessionCookieHeader } from "./session-cookie";
import { clientAddress, type SignInThrottle, SignInThrottledError } from "./sign-in-throttle";
import { ChatRequestError, SignInRejectedError } from "./web-errors";

const signInBody = z.object({ user: z.string().trim().min(1).max(63), password: z.string().max(1000) });

export interface SignInDependencies {
  /** The role sessions (resolved lazily: a bad configuration is answered with its typed error). */
  readonly sessions: () => RoleSessions;
  readonly throttle: SignInThrottle;
}

/**
 * `POST /api/session`: `{ user, password }` are checked by connecting to `DATABASE_URL`'s database as that role. On
 * success the response sets the sealed session cookie. Refused sign-ins are counted per role and per client address
 * (`sign-in-throttle.ts`): past the limit the answer is 429 with `Retry-After`, and PostgreSQL is not asked.
 */
export async function handleSignIn(request: Request, dependencies: SignInDependencies): Promise<Response> {
  try {
    checkSameOrigin(request);
    const parsed = signInBody.safeParse(await request.json().catch(() => undefined));
    if (!parsed.success) throw new ChatRequestError("Enter a PostgreSQL user name (and its password).");
    const { user, password } = parsed.data;
    const address = clientAddress(request);
    dependencies.throttle.check(user, address);
    let session: Awaited<ReturnType<RoleSessions["signIn"]>>;
    try {
      session = await dependencies.sessions().signIn(user, password);
    } catch (error) {
      if (SignInRejectedError.isInstance(error)) dependencies.throttle.recordRefusal(user, address);
      throw error;
    }
    dependencies.throttle.recordSuccess(user);
    const cookie = sessionCookieHeader(await sealSessionId(session.id), isSecureRequest(request));
    return Response.json({ role: session.role }, { headers: { "Set-Cookie": cookie } });
  } catch (error) {
    if (SignInThrottledError.isInstance(error)) {
      return Response.json(
        { error: errorData(error) },
        { status: 429, headers: { "Retry-After": String(error.retryAfterSeconds) } },
      );
    }
    return errorResponse(error);
  }
}
