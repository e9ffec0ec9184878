import { createHash } from "node:crypto";
import type { CachedLlmResponse, LlmCallKey, LlmResponseCache } from "@nlq/engine";
import { eq } from "drizzle-orm";
import type { MetadataDatabase } from "./metadata-database";
import { llmCache } from "./schema/llm-cache";

/** The cache key of one model call: SHA-256 over model, step, system prompt, prompt, temperature and sample. */
export function llmCacheKey(call: LlmCallKey): string {
  return createHash("sha256")
    .update(JSON.stringify([call.model, call.step, call.system ?? null, call.prompt, call.temperature, call.sample]))
    .digest("hex");
}

/** Language-model responses cached in the metadata store's `llm_cache` table (the engine's `LlmResponseCache`). */
export class MetadataLlmCache implements LlmResponseCache {
  readonly name = "metadata-llm-cache";
  readonly #database: MetadataDatabase;

  constructor(database: MetadataDatabase) {
    this.#database = database;
  }

  /** The cached response of this call, or undefined. */
  async get(call: LlmCallKey): Promise<CachedLlmResponse | undefined> {
    const [row] = await this.#database
      .select()
      .from(llmCache)
      .where(eq(llmCache.key, llmCacheKey(call)))
      .limit(1);
    return row === undefined
      ? undefined
      : { output: row.response, inputTokens: row.inputTokens, outputTokens: row.outputTokens };
  }

  /** Stores (or replaces) the response of this call. */
  async put(call: LlmCallKey, value: CachedLlmResponse): Promise<void> {
    const row = {
      key: llmCacheKey(call),
      model: call.model,
      step: call.step,
      response: value.output,
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
