/** Longest user agent kept. */
const maximumUserAgentLength = 200;

/**
 * Where a web request came from, for the audit trail: the first address of `X-Forwarded-For` (or `X-Real-IP`) as the
 * reverse proxy in front of the app reported it — the app sees no socket, so this is what the headers say, not a
 * verified address — and the browser's user agent as the application name. Absent headers give absent fields.
 */
export function requestClient(request: Request): { clientAddress?: string; applicationName?: string } {
  const forwarded =
    request.headers.get("x-forwarded-for")?.split(",")[0]?.trim() || request.headers.get("x-real-ip")?.trim();
  const userAgent = request.headers.get("user-agent")?.trim().slice(0, maximumUserAgentLength);
  return {
    ...(forwarded ? { clientAddress: forwarded } : {}),
    ...(userAgent ? { applicationName: userAgent } : {}),
  };
}
