import { index, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Which cached model responses an answer was made of: one row per answer and cache key (`llm_cache.key`) its model
 * calls read or wrote. An answer is named by `answerCacheKey` (SHA-256 of data source, role and question), which is
 * what a thumbs-down or a correction of that answer evicts by; `nlq cache clear` for one data
 * source deletes the cached responses its answers used. Rows expire with the responses (`NLQ_RESPONSE_CACHE_TTL`).
 */
export const llmCacheAnswers = pgTable(
  "llm_cache_answers",
  {
    answerKey: text("answer_key").notNull(),
    cacheKey: text("cache_key").notNull(),
    /** `host:port/database` the answer was asked on (no user, no secret). */
    dataSource: text("data_source").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.answerKey, table.cacheKey] }),
    index("llm_cache_answers_data_source_idx").on(table.dataSource),
    index("llm_cache_answers_created_at_idx").on(table.createdAt),
  ],
);

export type LlmCacheAnswerRow = typeof llmCacheAnswers.$inferSelect;
