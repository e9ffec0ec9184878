import { CancelledError } from "../errors/cancelled-error";
import { ModelCallError } from "../errors/model-errors";

/** Limits on language-model use for one question. */
export interface LlmBudgetOptions {
  /** Most calls allowed (`NLQ_MAX_LLM_CALLS`, default 20). */
  readonly maxCalls: number;
  /** Wall-clock budget from creation, in milliseconds (`NLQ_DEADLINE_MS`, default 120000). */
  readonly deadlineMilliseconds: number;
  /** Most input + output tokens over all calls (`NLQ_MAX_TOKENS`); 0 = no limit (the default). */
  readonly maxTokens?: number;
  /** Clock, for tests. Default `Date.now`. */
  readonly now?: () => number;
}

/** Counts calls and watches the deadline of one question; `reserve` before each call. */
export class LlmBudget {
  readonly maxCalls: number;
  readonly deadline: number;
  private readonly now: () => number;
  readonly maxTokens: number;
  private used = 0;
  private tokens = 0;

  constructor(options: LlmBudgetOptions) {
    this.now = options.now ?? Date.now;
    this.maxCalls = options.maxCalls;
    this.maxTokens = options.maxTokens ?? 0;
    this.deadline = this.now() + options.deadlineMilliseconds;
  }

  get tokensUsed(): number {
    return this.tokens;
  }

  /** Adds a finished call's tokens. */
  recordTokens(tokens: number): void {
    this.tokens += tokens;
  }

  /** Calls still allowed. */
  remainingCalls(): number {
    return Math.max(0, this.maxCalls - this.used);
  }

  remainingMilliseconds(): number {
    return Math.max(0, this.deadline - this.now());
  }

  /**
   * Why no further call is possible (the calls or tokens are used up, the deadline has passed), or undefined while one
   * is. For optional steps that skip rather than fail when the budget is spent.
   */
  spentReason(): string | undefined {
    if (this.used >= this.maxCalls) return `the language-model call budget is spent (${this.maxCalls} calls)`;
    if (this.maxTokens > 0 && this.tokens >= this.maxTokens) {
      return `the language-model token budget is spent (${this.tokens} of ${this.maxTokens} tokens)`;
    }
    if (this.remainingMilliseconds() <= 0) return "the question's deadline has passed";
    return undefined;
  }

  /** Takes one call from the budget; throws `ModelCallError` when calls or tokens run out, `CancelledError` past the deadline. */
  reserve(step: string): void {
    if (this.used >= this.maxCalls) {
      throw new ModelCallError(`language-model call budget exhausted (${this.maxCalls} calls) before step "${step}"`, {
        step,
      });
    }
    if (this.maxTokens > 0 && this.tokens >= this.maxTokens) {
      throw new ModelCallError(
        `language-model token budget exhausted (${this.tokens} of ${this.maxTokens} tokens) before step "${step}"`,
        { step },
      );
    }
    if (this.remainingMilliseconds() <= 0) {
      throw new CancelledError(`canceling statement due to the question's deadline (before step "${step}")`);
    }
    this.used += 1;
  }
}
