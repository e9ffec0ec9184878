import { index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Cache of language-model responses, keyed by `llmCacheKey` (SHA-256 of model, step, system prompt, prompt,
 * temperature and sample index), so re-running a question or an evaluation does not pay for identical calls twice.
 * A row is used for `NLQ_RESPONSE_CACHE_TTL` after it was written (`created_at`), then it is a miss and is pruned.
 */
export const llmCache = pgTable(
  "llm_cache",
  {
    key: text("key").primaryKey(),
    model: text("model").notNull(),
    step: text("step").notNull(),
    /**
     * `{ output, signature }`: the model's response (text or the parsed structured output) and the HMAC that proves
     * an nlq process wrote it (`llm-cache-integrity.ts`); a row without a valid signature is a cache miss.
     */
    response: jsonb("response").notNull(),
    inputTokens: integer("input_tokens").notNull().default(0),
    outputTokens: integer("output_tokens").notNull().default(0),
    /** When the response was written (a rewrite of the same key moves it): what its time to live counts from. */
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("llm_cache_created_at_idx").on(table.createdAt)],
);

export type LlmCacheRow = typeof llmCache.$inferSelect;
