import type { MetadataLlmCache, VerifiedExampleStore, WebThreadStore } from "@nlq/adapters";

/** What a thumbs up/down changed. */
export interface FeedbackOutcome {
  readonly feedback: string | null;
  /** The verified example a thumbs-up saved. */
  readonly verifiedExampleId?: string;
  /** True when the feedback retracted the example an earlier thumbs-up on the turn had saved. */
  readonly retracted?: true;
  /** Cached model responses a thumbs-down evicted (the question calls the model again); absent when none. */
  readonly evictedResponses?: number;
}

/**
 * Records thumbs up/down (or null) on one of `user`'s turns; undefined when the user has no such turn. A thumbs-up
 * on an answer makes its question and SQL a verified example owned by the user's role — shared with every role when
 * `administrator` — linked to the turn. Thumbs down, or null (the thumbs-up taken back), retracts the example that
 * the turn's thumbs-up saved, unless it was edited since. A thumbs-down also evicts the cached model responses the
 * role's answers to the question were made of (`responseCache.evictAnswer`), so asking again calls the model instead
 * of replaying the answer rated wrong.
 */
export async function applyTurnFeedback(options: {
  readonly threads: WebThreadStore;
  readonly examples: VerifiedExampleStore;
  readonly user: { readonly role: string; readonly dataSource: string };
  readonly turnId: string;
  readonly feedback: "up" | "down" | null;
  /** Whether the user's role is an example administrator (`isAdministrator`); asked only for a thumbs-up. */
  readonly administrator: () => Promise<boolean>;
  /** The metadata store's response cache (`MetadataStore.llmCache`). Default: none (nothing evicted). */
  readonly responseCache?: Pick<MetadataLlmCache, "evictAnswer">;
}): Promise<FeedbackOutcome | undefined> {
  const { user } = options;
  const turn = await options.threads.setFeedback(user, options.turnId, options.feedback);
  if (!turn) return undefined;
  if (options.feedback !== "up") {
    const retracted = await options.examples.retractAccepted(user.dataSource, user.role, turn.id);
    const evicted =
      options.feedback === "down" && options.responseCache
        ? await options.responseCache.evictAnswer({ ...user, question: turn.question })
        : 0;
    return {
      feedback: turn.feedback,
      ...(retracted > 0 ? { retracted: true as const } : {}),
      ...(evicted > 0 ? { evictedResponses: evicted } : {}),
    };
  }
  if (!turn.sql) return { feedback: turn.feedback };
  const example = await options.examples.save({
    dataSource: user.dataSource,
    question: turn.question,
    sql: turn.sql,
    source: "accepted",
    verifiedBy: user.role,
    sharedWithAllRoles: await options.administrator(),
    turnId: turn.id,
  });
  return { feedback: turn.feedback, verifiedExampleId: example.id };
}
