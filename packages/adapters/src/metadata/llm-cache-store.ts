import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import type { MetadataDatabase } from "./metadata-database";
import { llmCache } from "./schema/llm-cache";

/** The cache key of one model call: SHA-256 over model, step and the full prompt. */
export function llmCacheKey(call: { readonly model: string; readonly step: string; readonly prompt: string }): string {
  return createHash("sha256")
    .update(JSON.stringify([call.model, call.step, call.prompt]))
    .digest("hex");
}

export interface CachedLlmResponse {
  readonly response: unknown;
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** Language-model responses cached in the metadata store's `llm_cache` table. */
export class MetadataLlmCache {
  readonly name = "metadata-llm-cache";
  readonly #database: MetadataDatabase;

  constructor(database: MetadataDatabase) {
    this.#database = database;
  }

  /** The cached response of this call, or undefined. */
  async get(call: { model: string; step: string; prompt: string }): Promise<CachedLlmResponse | undefined> {
    const [row] = await this.#database
      .select()
      .from(llmCache)
      .where(eq(llmCache.key, llmCacheKey(call)))
      .limit(1);
    return row === undefined
      ? undefined
      : { response: row.response, inputTokens: row.inputTokens, outputTokens: row.outputTokens };
  }

  /** Stores (or replaces) the response of this call. */
  async put(call: { model: string; step: string; prompt: string }, value: CachedLlmResponse): Promise<void> {
    const key = llmCacheKey(call);
    const row = { key, model: call.model, step: call.step, ...value };
    await this.#database
      .insert(llmCache)
      .values(row)
      .onConflictDoUpdate({
        target: llmCache.key,
        set: { response: value.response, inputTokens: value.inputTokens, outputTokens: value.outputTokens },
      });
  }
}
