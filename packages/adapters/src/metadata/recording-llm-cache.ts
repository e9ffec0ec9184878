import type { CachedLlmResponse, LlmCallKey, LlmResponseCache } from "@nlq/engine";
import { llmCacheKey } from "./llm-cache-key";

/**
 * The response cache of one answer: reads and writes go to `cache`, and the key of every call it was asked about (hit
 * or written) is kept, so the composition can link the answer to them (`MetadataLlmCache.linkAnswer`) once it knows
 * the answer's SQL. A miss that was never written is kept too: evicting a key with no row is harmless.
 */
export class RecordingLlmCache implements LlmResponseCache {
  readonly #cache: LlmResponseCache;
  readonly #keys = new Set<string>();

  constructor(cache: LlmResponseCache) {
    this.#cache = cache;
  }

  /** The cache keys (`llmCacheKey`) of every call this answer made, in first-use order. */
  get keys(): readonly string[] {
    return [...this.#keys];
  }

  get(call: LlmCallKey): Promise<CachedLlmResponse | undefined> {
    this.#keys.add(llmCacheKey(call));
    return this.#cache.get(call);
  }

  put(call: LlmCallKey, response: CachedLlmResponse): Promise<void> {
    this.#keys.add(llmCacheKey(call));
    return this.#cache.put(call, response);
  }
}
