import type { MetadataLlmCache } from "@nlq/adapters";

/**
 * A correction (edited SQL saved as a verified example) says the answer to the question was wrong: evicts the cached
 * model responses of the role's answers to it — to the question as saved and as it was asked (`answered`, when the user
 * reworded it) — so asking again calls the model instead of replaying the corrected answer. A picked reading is an
 * answer choice, not a correction (docs/decisions/2026-12-01-readings-knowledge-and-teaching.md, rule 2): nothing is
 * evicted. How many responses it evicted.
 */
export async function evictCorrectedAnswer(
  cache: Pick<MetadataLlmCache, "evictAnswer">,
  user: { readonly role: string; readonly dataSource: string },
  saved: { readonly question: string; readonly answered?: string; readonly picked?: boolean },
): Promise<number> {
  if (saved.picked === true) return 0;
  let evicted = 0;
  for (const question of new Set([saved.question, saved.answered ?? saved.question])) {
    evicted += await cache.evictAnswer({ dataSource: user.dataSource, role: user.role, question });
  }
  return evicted;
}
