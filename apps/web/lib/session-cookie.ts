import { randomBytes } from "node:crypto";
import { sealData, unsealData } from "iron-session";

/** Name of the cookie that carries the sealed session id. */
export const sessionCookieName = "nlq_session";

/**
 * The key that seals session cookies (iron-session: AES-256-CBC + HMAC-SHA-256). It is made at process start and never
 * stored: sessions live in server memory, so a restart signs everyone out anyway and old cookies stop unsealing.
 */
const globalScope = globalThis as { __nlqWebCookieKey?: string };
globalScope.__nlqWebCookieKey ??= randomBytes(32).toString("base64url");
const processKey: string = globalScope.__nlqWebCookieKey;

/** Seals a session id for the cookie (the cookie holds nothing else: no role name, never a password). */
export function sealSessionId(sessionId: string, key = processKey): Promise<string> {
  return sealData({ sessionId }, { password: key, ttl: 0 });
}

/** The session id of a sealed cookie value, or undefined when it was not sealed by this process (or is damaged). */
export async function unsealSessionId(sealed: string, key = processKey): Promise<string | undefined> {
  try {
    const data = await unsealData<{ sessionId?: unknown }>(sealed, { password: key, ttl: 0 });
    return typeof data.sessionId === "string" ? data.sessionId : undefined;
  } catch {
    return undefined;
  }
}

/** The value of cookie `name` in a `Cookie` request header. */
export function cookieValue(cookieHeader: string | null, name: string): string | undefined {
  for (const pair of (cookieHeader ?? "").split(";")) {
    const separator = pair.indexOf("=");
    if (separator < 0) continue;
    if (pair.slice(0, separator).trim() === name) return decodeURIComponent(pair.slice(separator + 1).trim());
  }
  return undefined;
}

/**
 * The `Set-Cookie` value of a session cookie: HttpOnly, SameSite=Lax, Path=/, `Secure` when the site is served over
 * HTTPS; no Max-Age, so it ends with the browser session (the server ends idle sessions itself). An empty `sealed`
 * clears the cookie.
 */
export function sessionCookieHeader(sealed: string, secure: boolean): string {
  const attributes = ["Path=/", "HttpOnly", "SameSite=Lax", ...(secure ? ["Secure"] : [])];
  if (sealed === "") attributes.push("Max-Age=0");
  return [`${sessionCookieName}=${encodeURIComponent(sealed)}`, ...attributes].join("; ");
}
