import { type QueryExecutor, readableExamples, similarExamples, type TransactionStatus } from "@nlq/engine";
import type { MetadataDatabase } from "./metadata-database";
import type { VerifiedExampleRow } from "./schema/verified-examples";
import { VerifiedExampleStore } from "./verified-example-store";

export interface VerifiedExamplesForRoleOptions {
  readonly database: MetadataDatabase;
  /** `host:port/database` of the target database. */
  readonly dataSource: string;
  /** The asking role (`current_user` of `session`). */
  readonly role: string;
  /** A session authenticated as `role` on the target database: the checks run there, read-only. */
  readonly session: QueryExecutor;
  /** The session's transaction state now. Default `idle`. */
  readonly transactionStatus?: TransactionStatus;
  /** With a question: the most similar pairs (word overlap), best first. Without: the most recently changed. */
  readonly question?: string;
  /** Most pairs returned. */
  readonly limit: number;
  /** `NLQ_ALLOWED_FUNCTIONS`. */
  readonly allowedFunctions?: readonly string[];
  /** `statement_timeout` of each check (`NLQ_STATEMENT_TIMEOUT_MS`), at most 1 s. */
  readonly statementTimeoutMilliseconds: number;
  readonly abortSignal?: AbortSignal;
}

/** Longest one check statement may run (a probe scanning a large table without an index); it then drops its pair. */
const checkTimeoutMilliseconds = 1_000;
/** Time for all checks of one question's examples (the question waits for them) and of a list. */
const questionBudgetMilliseconds = 3_000;
const listBudgetMilliseconds = 10_000;

/** Candidates looked at per pair wanted when ranking by a question (some may fail the checks). */
const candidatesPerExample = 3;
/** Most pairs checked for a list without a question. */
const maximumListed = 200;

/**
 * The one lookup of verified examples for a role — for prompts, suggestion chips and the examples list alike: the
 * pairs the store lets `role` see (its own, and administrators' shared ones), ranked, then kept only when the target
 * database shows that `role` may read everything the pair's SQL uses, literals' rows included (`readableExamples`).
 * Each check statement runs at most 1 s; all checks of a question at most 3 s (10 s for a list): a pair not checked
 * in time is left out.
 */
export async function verifiedExamplesForRole(options: VerifiedExamplesForRoleOptions): Promise<VerifiedExampleRow[]> {
  const limit = Math.max(0, Math.floor(options.limit));
  if (limit === 0) return [];
  const visible = await new VerifiedExampleStore(options.database).visibleTo(options.dataSource, options.role);
  const candidates =
    options.question === undefined
      ? visible.slice(0, Math.min(maximumListed, Math.max(limit, limit * candidatesPerExample)))
      : similarExamples(options.question, visible, limit * candidatesPerExample);
  return readableExamples({
    session: options.session,
    ...(options.transactionStatus ? { transactionStatus: options.transactionStatus } : {}),
    examples: candidates,
    ...(options.allowedFunctions ? { allowedFunctions: options.allowedFunctions } : {}),
    statementTimeoutMilliseconds: Math.min(options.statementTimeoutMilliseconds, checkTimeoutMilliseconds),
    budgetMilliseconds: options.question === undefined ? listBudgetMilliseconds : questionBudgetMilliseconds,
    ownExample: (example) => example.verifiedBy === options.role,
    limit,
    ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
  });
}
