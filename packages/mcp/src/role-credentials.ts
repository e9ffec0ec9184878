import { createHash, timingSafeEqual } from "node:crypto";

/** A PostgreSQL role and its password, as an HTTP client presents them. */
export interface RoleCredentials {
  readonly role: string;
  readonly password: string;
}

/** The `WWW-Authenticate` challenge of a 401: HTTP Basic (role as user name) or a bearer token `role:password`. */
export const authenticateChallenge = 'Basic realm="nlq", charset="UTF-8", Bearer realm="nlq"';

/**
 * The role and password of an `Authorization` header: `Basic base64(role:password)` or `Bearer role:password` (the
 * role name is what comes before the first `:`). Undefined when the header is missing, of another scheme, or has no
 * role name or no password.
 */
export function parseAuthorization(header: string | undefined): RoleCredentials | undefined {
  if (header === undefined) return undefined;
  const match = /^\s*(basic|bearer)\s+(\S+)\s*$/i.exec(header);
  if (!match) return undefined;
  const [, scheme, value] = match as unknown as [string, string, string];
  let text = value;
  if (scheme.toLowerCase() === "basic") {
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return undefined;
    text = Buffer.from(value, "base64").toString("utf8");
  }
  const separator = text.indexOf(":");
  if (separator <= 0) return undefined;
  const role = text.slice(0, separator);
  const password = text.slice(separator + 1);
  if (password === "" || /[\u0000]/.test(role + password)) return undefined;
  return { role, password };
}

/** A digest of the credentials that opened a session: later requests of the session must present the same. */
export function credentialsDigest(credentials: RoleCredentials): Buffer {
  return createHash("sha256").update(credentials.role).update("\u0000").update(credentials.password).digest();
}

/** Compares two digests in constant time. */
export function sameCredentials(left: Buffer, right: Buffer): boolean {
  return left.length === right.length && timingSafeEqual(left, right);
}
