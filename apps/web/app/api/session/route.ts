import { authorizeRequest } from "../../../lib/authorize-request";
import { isSecureRequest } from "../../../lib/same-origin";
import { sessionCookieHeader } from "../../../lib/session-cookie";
import { handleSignIn } from "../../../lib/sign-in-request";
import { webSignInThrottle } from "../../../lib/sign-in-throttle";
import { webRoleSessions } from "../../../lib/web-resources";
import { loadWebSettings } from "../../../lib/web-settings";

/** Who is signed in: `{ role, dataSource, singleUser }`, or 401. */
export async function GET(request: Request): Promise<Response> {
  const authorization = await authorizeRequest(request);
  if (!authorization.user) return authorization.response;
  const { role, dataSource, singleUser } = authorization.user;
  return Response.json({ role, dataSource, singleUser });
}

/**
 * Signs in: `{ user, password }` are checked by connecting to `DATABASE_URL`'s database as that role. On success the
 * response sets the sealed session cookie. The password is kept only by the session's connection pool in memory.
 * Refused attempts are limited per role and per address (429 with `Retry-After` past the limit).
 */
export function POST(request: Request): Promise<Response> {
  return handleSignIn(request, {
    sessions: () => webRoleSessions(loadWebSettings(process.env)),
    throttle: webSignInThrottle(),
  });
}

/** Signs out: ends the session (closing its connections) and clears the cookie. */
export async function DELETE(request: Request): Promise<Response> {
  const authorization = await authorizeRequest(request);
  if (!authorization.user) return authorization.response;
  if (authorization.user.sessionId !== undefined) {
    await webRoleSessions(loadWebSettings(process.env)).signOut(authorization.user.sessionId);
  }
  return new Response(null, {
    status: 204,
    headers: { "Set-Cookie": sessionCookieHeader("", isSecureRequest(request)) },
  });
}
