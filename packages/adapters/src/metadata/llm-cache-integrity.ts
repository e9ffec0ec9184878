import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { closeSync, linkSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import type { CachedLlmResponse } from "@nlq/engine";
import { MetadataStoreError } from "./metadata-store-error";

/**
 * The secret that signs `llm_cache` rows: 32 random bytes kept in `<state>/llm-cache.key` (mode 0600), created once.
 * Whoever can write the metadata store but cannot read this file (another database role, another local user)
 * cannot plant a cached response: a row whose signature does not match is a cache miss.
 */
export function llmCacheIntegrityKey(stateDirectory: string): Buffer {
  const file = path.join(stateDirectory, "llm-cache.key");
  const existing = readKey(file);
  if (existing !== undefined) return existing;
  mkdirSync(stateDirectory, { recursive: true, mode: 0o700 });
  // Written to a private temporary file, then linked into place: a reader never sees a half-written key, and of
  // two processes creating it at once, the first link wins and both use its key.
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString("hex")}`;
  const descriptor = openSync(temporary, "wx", 0o600);
  try {
    writeSync(descriptor, `${randomBytes(32).toString("hex")}\n`);
  } finally {
    closeSync(descriptor);
  }
  try {
    linkSync(temporary, file);
  } catch (error) {
    if ((error as { code?: unknown }).code !== "EEXIST") {
      throw new MetadataStoreError(`cannot create the LLM cache key ${file}`, { driver: "postgres", cause: error });
    }
  } finally {
    rmSync(temporary, { force: true });
  }
  const key = readKey(file);
  if (key === undefined) {
    throw new MetadataStoreError(`the LLM cache key ${file} is not 64 hexadecimal digits: delete it`, {
      driver: "postgres",
    });
  }
  return key;
}

function readKey(file: string): Buffer | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8").trim();
  } catch {
    return undefined;
  }
  return /^[0-9a-f]{64}$/.test(text) ? Buffer.from(text, "hex") : undefined;
}

/**
 * HMAC-SHA256 over everything a cached row makes the engine believe: the call's cache key and the response with its
 * token counts. JSON with sorted object keys, because `jsonb` does not keep the order a response was written in.
 */
export function signCachedResponse(key: Buffer, cacheKey: string, response: CachedLlmResponse): string {
  return createHmac("sha256", key)
    .update(canonicalJson([cacheKey, response.output, response.inputTokens, response.outputTokens]))
    .digest("hex");
}

/** True when `signature` is the signature of this row (constant-time comparison). */
export function hasValidSignature(
  key: Buffer,
  cacheKey: string,
  response: CachedLlmResponse,
  signature: unknown,
): boolean {
  if (typeof signature !== "string" || !/^[0-9a-f]{64}$/.test(signature)) return false;
  return timingSafeEqual(
    Buffer.from(signCachedResponse(key, cacheKey, response), "hex"),
    Buffer.from(signature, "hex"),
  );
}

function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_name, item: unknown) =>
    item !== null && typeof item === "object" && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0)))
      : item,
  );
}
