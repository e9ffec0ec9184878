import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** A role's stored SCRAM-SHA-256 secret (`pg_authid.rolpassword`): enough to verify a login, not to make one. */
export interface ScramVerifier {
  readonly iterations: number;
  readonly salt: Buffer;
  readonly storedKey: Buffer;
  readonly serverKey: Buffer;
}

const verifierPattern = /^SCRAM-SHA-256\$(\d+):([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+):([A-Za-z0-9+/=]+)$/;

/** Reads `SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>`; undefined for anything else (md5, none). */
export function parseScramVerifier(text: string | null | undefined): ScramVerifier | undefined {
  const match = text === null || text === undefined ? null : verifierPattern.exec(text);
  if (match === null) return undefined;
  const storedKey = Buffer.from(match[3]!, "base64");
  const serverKey = Buffer.from(match[4]!, "base64");
  if (storedKey.length !== 32 || serverKey.length !== 32) return undefined;
  return { iterations: Number(match[1]), salt: Buffer.from(match[2]!, "base64"), storedKey, serverKey };
}

/**
 * A verifier no password matches, for a role that does not exist or has no SCRAM secret: the exchange runs as for any
 * role and fails at the proof, as PostgreSQL's mock authentication does. The salt is stable per role name.
 */
export function mockScramVerifier(role: string, secret: Buffer): ScramVerifier {
  return {
    iterations: 4096,
    salt: hmac(secret, `salt:${role}`).subarray(0, 16),
    storedKey: randomBytes(32),
    serverKey: randomBytes(32),
  };
}

export function hmac(key: Buffer, text: string): Buffer {
  return createHmac("sha256", key).update(text, "utf8").digest();
}

export function sha256(bytes: Buffer): Buffer {
  return createHash("sha256").update(bytes).digest();
}

export function xor(left: Buffer, right: Buffer): Buffer {
  const result = Buffer.alloc(left.length);
  for (let index = 0; index < left.length; index++) result[index] = left[index]! ^ right[index]!;
  return result;
}

export function sameBytes(left: Buffer, right: Buffer): boolean {
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A fresh nonce: 18 random bytes, base64 (printable, no comma). */
export function scramNonce(): string {
  return randomBytes(18).toString("base64");
}
