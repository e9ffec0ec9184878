import { NlqError } from "@nlq/engine";

/** Questions a proxy answers at once: in all, and per role (`NLQ_MAX_CONCURRENT_QUESTIONS[_PER_ROLE]`). */
export interface QuestionCaps {
  readonly perProxy: number;
  readonly perRole: number;
}

/** The defaults of `NLQ_MAX_CONCURRENT_QUESTIONS` and `NLQ_MAX_CONCURRENT_QUESTIONS_PER_ROLE`. */
export const DEFAULT_QUESTION_CAPS: QuestionCaps = { perProxy: 64, perRole: 16 };

const tooManyQuestionsErrorMarker = Symbol.for("nlq.error.TooManyQuestionsError");

/**
 * A question refused because a cap on the questions answered at once is reached; the message names the cap and its
 * variable. SQLSTATE 53400 (configuration_limit_exceeded): the question fails, the connection stays usable.
 */
export class TooManyQuestionsError extends NlqError {
  readonly [tooManyQuestionsErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is TooManyQuestionsError {
    return NlqError.hasMarker(error, tooManyQuestionsErrorMarker);
  }

  constructor(message: string) {
    super(message, { code: "53400" });
  }
}

/**
 * Counts the questions being answered, in all and per role, and refuses one more past either cap at once (no queue:
 * a waiting question would hold its client and its model budget with no bound on the wait).
 */
export class QuestionSlots {
  readonly #caps: QuestionCaps;
  readonly #byRole = new Map<string, number>();
  #running = 0;

  constructor(caps: QuestionCaps) {
    this.#caps = caps;
  }

  /** Questions being answered now. */
  get running(): number {
    return this.#running;
  }

  /** Takes a slot for a question of `role`; returns what gives it back (once). Throws `TooManyQuestionsError`. */
  take(role: string): () => void {
    if (this.#running >= this.#caps.perProxy) {
      throw new TooManyQuestionsError(
        `too many questions at once: this nlq proxy answers at most ${this.#caps.perProxy} at a time (NLQ_MAX_CONCURRENT_QUESTIONS); ask again when one is answered`,
      );
    }
    const ofRole = this.#byRole.get(role) ?? 0;
    if (ofRole >= this.#caps.perRole) {
      throw new TooManyQuestionsError(
        `too many questions at once for role "${role}": at most ${this.#caps.perRole} at a time per role (NLQ_MAX_CONCURRENT_QUESTIONS_PER_ROLE); ask again when one is answered`,
      );
    }
    this.#running++;
    this.#byRole.set(role, ofRole + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.#running--;
      const left = (this.#byRole.get(role) ?? 1) - 1;
      if (left === 0) this.#byRole.delete(role);
      else this.#byRole.set(role, left);
    };
  }
}
