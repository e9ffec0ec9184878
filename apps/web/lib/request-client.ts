import { clientAddress } from "./sign-in-throttle";

/** Longest user agent kept. */
const maximumUserAgentLength = 200;

/**
 * Where a web request came from, for the audit trail: the forwarded client address as the sign-in throttle reads it
 * (`clientAddress`: the first `X-Forwarded-For` entry, else `X-Real-IP`, at most 100 characters) — the app sees no
 * socket, so this is what the reverse proxy's headers say, not a verified address — and the browser's user agent as
 * the application name. Absent headers give absent fields.
 */
export function requestClient(request: Request): { clientAddress?: string; applicationName?: string } {
  const forwarded = clientAddress(request);
  const userAgent = request.headers.get("user-agent")?.trim().slice(0, maximumUserAgentLength);
  return {
    ...(forwarded ? { clientAddress: forwarded } : {}),
    ...(userAgent ? { applicationName: userAgent } : {}),
  };
}
