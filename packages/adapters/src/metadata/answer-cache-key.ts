import { createHash } from "node:crypto";

/**
 * An answer as feedback names it: who asked which question on which data source. A web turn, an audit entry and the
 * answer itself all carry these three; a correction (an edited SQL saved for the question) names no more.
 */
export interface AnsweredQuestion {
  /** `host:port/database` (`dataSourceKey`). */
  readonly dataSource: string;
  /** The PostgreSQL role that asked. */
  readonly role: string;
  readonly question: string;
}

/**
 * The key `llm_cache_answers` links an answer's cached model responses under: SHA-256 over data source, role and
 * question. Every answer the role got to that question is linked under it, so evicting by it removes whatever would
 * replay an answer the user rated down or corrected (the prompts follow the question and the role's catalog).
 */
export function answerCacheKey(answer: AnsweredQuestion): string {
  return createHash("sha256")
    .update(JSON.stringify([answer.dataSource, answer.role, answer.question]))
    .digest("hex");
}
