/**
 * Counts the bytes of result rows as they arrive and decides which rows are kept (pure; both executors use it).
 * Rows are kept while their total stays within `limit`; the first row that would pass it flips `exceeded`, calls
 * `onExceeded` once (the executor cancels the statement there) and every later row is dropped.
 */
export class ResultByteBudget {
  readonly #limit: number;
  readonly #onExceeded: () => void;
  #used = 0;
  #exceeded = false;

  /** `limit` undefined keeps every row. */
  constructor(limit: number | undefined, onExceeded: () => void) {
    this.#limit = limit === undefined ? Number.POSITIVE_INFINITY : Math.max(0, limit);
    this.#onExceeded = onExceeded;
  }

  /** True once a row did not fit. */
  get exceeded(): boolean {
    return this.#exceeded;
  }

  /** Bytes of the rows kept so far. */
  get used(): number {
    return this.#used;
  }

  /** Accounts one row of `bytes`; returns whether to keep it. */
  accept(bytes: number): boolean {
    if (this.#exceeded) return false;
    if (this.#used + bytes > this.#limit) {
      this.#exceeded = true;
      this.#onExceeded();
      return false;
    }
    this.#used += bytes;
    return true;
  }
}
