import type { CachedLlmResponse, LlmCallKey, LlmResponseCache } from "@nlq/engine";
import { and, eq, gt, inArray, lt, sql } from "drizzle-orm";
import { defaultModelCacheTimeToLiveSeconds } from "../config/model-cache-time-to-live";
import { type AnsweredQuestion, answerCacheKey } from "./answer-cache-key";
import { hasValidSignature, signCachedResponse } from "./llm-cache-integrity";
import { llmCacheKey } from "./llm-cache-key";
import type { MetadataDatabase } from "./metadata-database";
import { llmCache } from "./schema/llm-cache";
import { llmCacheAnswers } from "./schema/llm-cache-answers";

export { llmCacheKey } from "./llm-cache-key";

/** What the `response` column holds: the model's output and the row's signature (`llm-cache-integrity.ts`). */
interface SignedResponse {
  readonly output: unknown;
  readonly signature: string;
}

export interface MetadataLlmCacheOptions {
  /**
   * Seconds a response is replayed after it was written (`NLQ_RESPONSE_CACHE_TTL`); older rows are misses and are
   * pruned. `0`: nothing is stored or replayed. `null`: never expires. Default 7 days.
   */
  readonly timeToLiveSeconds?: number | null;
}

/** How often a writing process prunes expired rows at most (they are misses anyway; pruning only frees space). */
const pruneIntervalMilliseconds = 10 * 60 * 1_000;

/** Most keys one `DELETE … WHERE key IN (…)` names. */
const keysPerStatement = 1_000;

/**
 * Language-model responses cached in the metadata store's `llm_cache` table (the engine's `LlmResponseCache`).
 * Every row is signed with a key only nlq's processes can read (`llmCacheIntegrityKey`): a row written or changed
 * by anyone else (an `UPDATE llm_cache SET response = …`) is not used. What a valid row yields is still only a
 * model output: the engine parses it against the step's schema and validates its SQL as it does a fresh answer's.
 *
 * A row is replayed for `timeToLiveSeconds` after it was written, then it is a miss (and pruned). The answers a row
 * went into are linked to it (`linkAnswer`), so a thumbs-down or a correction of an answer evicts exactly the
 * responses that would replay it (`evictAnswer`), and `clear` empties the cache or one data source's part of it.
 */
export class MetadataLlmCache implements LlmResponseCache {
  readonly name = "metadata-llm-cache";
  readonly #database: MetadataDatabase;
  readonly #integrityKey: Buffer;
  readonly #timeToLiveSeconds: number | null;
  #lastPruned = 0;

  constructor(database: MetadataDatabase, integrityKey: Buffer, options: MetadataLlmCacheOptions = {}) {
    this.#database = database;
    this.#integrityKey = integrityKey;
    this.#timeToLiveSeconds =
      options.timeToLiveSeconds === undefined ? defaultModelCacheTimeToLiveSeconds : options.timeToLiveSeconds;
  }

  /** Seconds a response is replayed (`null`: never expires). */
  get timeToLiveSeconds(): number | null {
    return this.#timeToLiveSeconds;
  }

  /** The key this call's response is cached under (`llmCacheKey`). */
  keyOf(call: LlmCallKey): string {
    return llmCacheKey(call);
  }

  /** The cached response of this call, or undefined (also when it expired or its signature does not match). */
  async get(call: LlmCallKey): Promise<CachedLlmResponse | undefined> {
    if (this.#timeToLiveSeconds === 0) return undefined;
    const key = llmCacheKey(call);
    const [row] = await this.#database
      .select()
      .from(llmCache)
      .where(and(eq(llmCache.key, key), this.#fresh()))
      .limit(1);
    if (row === undefined) return undefined;
    const stored = row.response as Partial<SignedResponse> | null;
    if (stored === null || typeof stored !== "object" || !("output" in stored)) return undefined;
    const response = { output: stored.output, inputTokens: row.inputTokens, outputTokens: row.outputTokens };
    return hasValidSignature(this.#integrityKey, key, response, stored.signature) ? response : undefined;
  }

  /** Stores (or replaces, restarting its time to live) the response of this call, signed. */
  async put(call: LlmCallKey, value: CachedLlmResponse): Promise<void> {
    if (this.#timeToLiveSeconds === 0) return;
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
        set: {
          response: row.response,
          inputTokens: row.inputTokens,
          outputTokens: row.outputTokens,
          createdAt: sql`now()`,
        },
      });
    if (Date.now() - this.#lastPruned >= pruneIntervalMilliseconds) {
      this.#lastPruned = Date.now();
      await this.prune();
    }
  }

  /** Deletes the rows (and answer links) older than the time to live; how many responses it deleted. */
  async prune(): Promise<number> {
    if (this.#timeToLiveSeconds === null) return 0;
    const cutoff = sql`now() - make_interval(secs => ${this.#timeToLiveSeconds})`;
    const deleted = await this.#database
      .delete(llmCache)
      .where(lt(llmCache.createdAt, cutoff))
      .returning({ key: llmCache.key });
    await this.#database.delete(llmCacheAnswers).where(lt(llmCacheAnswers.createdAt, cutoff));
    return deleted.length;
  }

  /** Records that `answer` was made of the responses under `cacheKeys` (`RecordingLlmCache.keys`). */
  async linkAnswer(answer: AnsweredQuestion, cacheKeys: readonly string[]): Promise<void> {
    if (cacheKeys.length === 0) return;
    const answerKey = answerCacheKey(answer);
    for (let start = 0; start < cacheKeys.length; start += keysPerStatement) {
      await this.#database
        .insert(llmCacheAnswers)
        .values(
          cacheKeys
            .slice(start, start + keysPerStatement)
            .map((cacheKey) => ({ answerKey, cacheKey, dataSource: answer.dataSource })),
        )
        .onConflictDoUpdate({
          target: [llmCacheAnswers.answerKey, llmCacheAnswers.cacheKey],
          set: { createdAt: sql`now()` },
        });
    }
  }

  /**
   * Evicts the cached responses `answer` was made of (a thumbs-down, a corrected SQL): the same question then calls
   * the model again. How many responses it deleted.
   */
  async evictAnswer(answer: AnsweredQuestion): Promise<number> {
    const answerKey = answerCacheKey(answer);
    const links = await this.#database
      .delete(llmCacheAnswers)
      .where(eq(llmCacheAnswers.answerKey, answerKey))
      .returning({ cacheKey: llmCacheAnswers.cacheKey });
    return this.#deleteResponses(links.map((link) => link.cacheKey));
  }

  /**
   * Empties the cache (`nlq cache clear`): every response, or with `dataSource` those the answers on that data source
   * were made of. How many responses it deleted.
   */
  async clear(options: { readonly dataSource?: string } = {}): Promise<number> {
    if (options.dataSource === undefined) {
      const deleted = await this.#database.delete(llmCache).returning({ key: llmCache.key });
      await this.#database.delete(llmCacheAnswers);
      return deleted.length;
    }
    const links = await this.#database
      .delete(llmCacheAnswers)
      .where(eq(llmCacheAnswers.dataSource, options.dataSource))
      .returning({ cacheKey: llmCacheAnswers.cacheKey });
    return this.#deleteResponses([...new Set(links.map((link) => link.cacheKey))]);
  }

  async #deleteResponses(keys: readonly string[]): Promise<number> {
    let deleted = 0;
    for (let start = 0; start < keys.length; start += keysPerStatement) {
      const rows = await this.#database
        .delete(llmCache)
        .where(inArray(llmCache.key, keys.slice(start, start + keysPerStatement)))
        .returning({ key: llmCache.key });
      deleted += rows.length;
    }
    return deleted;
  }

  /** Rows still within their time to live. */
  #fresh() {
    return this.#timeToLiveSeconds === null
      ? undefined
      : gt(llmCache.createdAt, sql`now() - make_interval(secs => ${this.#timeToLiveSeconds})`);
  }
}
