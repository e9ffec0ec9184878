import { createHash } from "node:crypto";
import type { CachedLlmResponse, LlmCallKey, LlmResponseCache } from "@nlq/engine";
import { eq } from "drizzle-orm";
import { hasValidSignature, signCachedResponse } from "./llm-cache-integrity";
import type { MetadataDatabase } from "./metadata-database";
import { llmCache } from "./schema/llm-cache";

/** The cache key of one model call: SHA-256 over model, step, system prompt, prompt, temperature and sample. */
export function llmCacheKey(call: LlmCallKey): string {
  return createHash("sha256")
    .update(JSON.stringify([call.model, call.step, call.system ?? null, call.prompt, call.temperature, call.sample]))
    .digest("hex");
}

/** What the `response` column holds: the model's output and the row's signature (`llm-cache-integrity.ts`). */
interface SignedResponse {
  readonly output: unknown;
  readonly signature: string;
}

/**
 * Language-model responses cached in the metadata store's `llm_cache` table (the engine's `LlmResponseCache`).
 * Every row is signed with a key only nlq's processes can read (`llmCacheIntegrityKey`): a row written or changed
 * by anyone else (an `UPDATE llm_cache SET response = …`) is not used. What a valid row yields is still only a
 * model output: the engine parses it against the step's schema and validates its SQL as it does a fresh answer's.
 */
export class MetadataLlmCache implements LlmResponseCache {
  readonly name = "metadata-llm-cache";
  readonly #database: MetadataDatabase;
  readonly #integrityKey: Buffer;

  constructor(database: MetadataDatabase, integrityKey: Buffer) {
    this.#database = database;
    this.#integrityKey = integrityKey;
  }

  /** The cached response of this call, or undefined (also when its signature does not match). */
  async get(call: LlmCallKey): Promise<CachedLlmResponse | undefined> {
    const key = llmCacheKey(call);
    const [row] = await this.#database.select().from(llmCache).where(eq(llmCache.key, key)).limit(1);
    if (row === undefined) return undefined;
    const stored = row.response as Partial<SignedResponse> | null;
    if (stored === null || typeof stored !== "object" || !("output" in stored)) return undefined;
    const response = { output: stored.output, inputTokens: row.inputTokens, outputTokens: row.outputTokens };
    return hasValidSignature(this.#integrityKey, key, response, stored.signature) ? response : undefined;
  }

  /** Stores (or replaces) the response of this call, signed. */
  async put(call: LlmCallKey, value: CachedLlmResponse): Promise<void> {
    const key = llmCacheKey(call);
    const response: SignedResponse = {
      output: value.output,
      signature: signCachedResponse(this.#integrityKey, key, value),
    };
    const row = {
      key,
      model: call.model,
      step: call.step,
      response,
      inputTokens: value.inputTokens,
      outputTokens: value.outputTokens,
    };
    await this.#database
      .insert(llmCache)
      .values(row)
      .onConflictDoUpdate({
        target: llmCache.key,
        set: { response: row.response, inputTokens: row.inputTokens, outputTokens: row.outputTokens },
      });
  }
}
