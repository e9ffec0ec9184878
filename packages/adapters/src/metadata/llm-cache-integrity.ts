import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import {
  closeSync,
  constants,
  fstatSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeSync,
} from "node:fs";
import path from "node:path";
import { type CachedLlmResponse, NlqError } from "@nlq/engine";
import { MetadataStoreError } from "./metadata-store-error";

/**
 * The secret that signs `llm_cache` rows: 32 random bytes kept in `<state>/llm-cache.key` (mode 0600), created once.
 * Whoever can write the metadata store but cannot read this file (another database role, another local user)
 * cannot plant a cached response: a row whose signature does not match is a cache miss.
 *
 * The file is checked every time it is read, as ssh checks a private key: it must be a regular file (not a symbolic
 * link), owned by this process's user, with no permission bit for group or others. Otherwise it is refused with
 * `LlmCacheKeyExposedError` and never used — not repaired: a key someone else could read may already be known to
 * them (chmod would keep trusting it), and a key someone else owns was chosen by them. The user deletes it (a new one
 * is created) once they know why it was exposed. Until then the metadata store signs with a key of the process only
 * (`open-metadata-store.ts`), so no row signed with the exposed key is trusted. Not checked where the platform has no
 * owner or mode bits (Windows).
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
  let descriptor: number;
  try {
    descriptor = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ENOENT") return undefined;
    if (code === "ELOOP") throw new LlmCacheKeyExposedError(file, "is a symbolic link");
    throw new MetadataStoreError(`cannot read the LLM cache key ${file}`, { driver: "postgres", cause: error });
  }
  let text: string;
  try {
    refuseExposed(file, fstatSync(descriptor));
    text = readFileSync(descriptor, "utf8").trim();
  } finally {
    closeSync(descriptor);
  }
  return /^[0-9a-f]{64}$/.test(text) ? Buffer.from(text, "hex") : undefined;
}

/** Throws `LlmCacheKeyExposedError` unless the open key file is a regular file of this user, mode 0600 or stricter. */
function refuseExposed(file: string, status: { mode: number; uid: number; isFile(): boolean }): void {
  if (!status.isFile()) throw new LlmCacheKeyExposedError(file, "is not a regular file");
  if (process.platform === "win32" || process.getuid === undefined) return;
  const user = process.getuid();
  if (status.uid !== user) {
    throw new LlmCacheKeyExposedError(file, `belongs to user id ${status.uid}, not to this user (${user})`);
  }
  if ((status.mode & 0o077) !== 0) {
    const mode = (status.mode & 0o777).toString(8).padStart(4, "0");
    throw new LlmCacheKeyExposedError(file, `is open to group or others (mode ${mode}, must be 0600)`);
  }
}

const llmCacheKeyExposedErrorMarker = Symbol.for("nlq.error.LlmCacheKeyExposedError");

/**
 * The LLM cache key file is exposed (open to group or others, another user's, a symbolic link) and is not used:
 * whoever can read or chose it could sign cached responses. Delete the file; nlq creates a new private one.
 */
export class LlmCacheKeyExposedError extends MetadataStoreError {
  readonly [llmCacheKeyExposedErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is LlmCacheKeyExposedError {
    return NlqError.hasMarker(error, llmCacheKeyExposedErrorMarker);
  }

  readonly file: string;
  constructor(file: string, reason: string) {
    super(
      `the LLM cache key ${file} ${reason}: whoever can read it can plant cached model responses, so nlq does not use ` +
        "it. Delete it (nlq creates a new one, mode 0600) after finding out why it was exposed",
      { driver: "postgres" },
    );
    this.file = file;
  }
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
