import { loadServiceSettings } from "@nlq/engine";
import { z } from "zod";
import { authorizeRequest, errorResponse } from "../../../lib/authorize-request";
import { checkSameOrigin, isSecureRequest } from "../../../lib/same-origin";
import { sealSessionId, sessionCookieHeader } from "../../../lib/session-cookie";
import { ChatRequestError } from "../../../lib/web-errors";
import { webRoleSessions } from "../../../lib/web-resources";

const signInBody = z.object({ user: z.string().trim().min(1).max(63), password: z.string().max(1000) });

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
 */
export async function POST(request: Request): Promise<Response> {
  try {
    checkSameOrigin(request);
    const parsed = signInBody.safeParse(await request.json().catch(() => undefined));
    if (!parsed.success) throw new ChatRequestError("Enter a PostgreSQL user name (and its password).");
    const session = await webRoleSessions(loadServiceSettings(process.env)).signIn(
      parsed.data.user,
      parsed.data.password,
    );
    const cookie = sessionCookieHeader(await sealSessionId(session.id), isSecureRequest(request));
    return Response.json({ role: session.role }, { headers: { "Set-Cookie": cookie } });
  } catch (error) {
    return errorResponse(error);
  }
}

/** Signs out: ends the session (closing its connections) and clears the cookie. */
export async function DELETE(request: Request): Promise<Response> {
  const authorization = await authorizeRequest(request);
  if (!authorization.user) return authorization.response;
  if (authorization.user.sessionId !== undefined) {
    await webRoleSessions(loadServiceSettings(process.env)).signOut(authorization.user.sessionId);
  }
  return new Response(null, {
    status: 204,
    headers: { "Set-Cookie": sessionCookieHeader("", isSecureRequest(request)) },
  });
}
