/**
 * The ReadyForQuery messages the upstream still owes (one per forwarded startup, Query, Sync or
 * FunctionCall, and per statement run while answering; none for a Sync PostgreSQL reads as part of a COPY FROM STDIN),
 * and who waits until none is owed.
 */
export class PendingReady {
  #count = 0;
  #idleWaiters: Array<() => void> = [];

  /** True while the upstream owes a ReadyForQuery (a statement may be running). */
  get owed(): boolean {
    return this.#count > 0;
  }

  /** How many ReadyForQuery messages are owed. */
  get count(): number {
    return this.#count;
  }

  /** Sets how many are owed (the native relay counted them meanwhile); releases the waiters at none. */
  restore(count: number): void {
    this.#count = count;
    if (count === 0) this.releaseWaiters();
  }

  /** One more ReadyForQuery is owed. */
  expect(): void {
    this.#count++;
  }

  /**
   * `count` of the ReadyForQuery messages counted are not owed after all: PostgreSQL ignores the Syncs sent after the
   * Execute that started a COPY FROM STDIN (`ClientMessageRouter.noteUpstream`). Releases the waiters at none.
   */
  ignore(count: number): void {
    if (count > 0) this.restore(Math.max(0, this.#count - count));
  }

  /** Counts one upstream ReadyForQuery; true when none is owed any more (the waiters are released). */
  received(): boolean {
    this.#count = Math.max(0, this.#count - 1);
    if (this.#count !== 0) return false;
    this.releaseWaiters();
    return true;
  }

  /** Resolves once no ReadyForQuery is owed (at once if none is). */
  whenIdle(): Promise<void> {
    if (this.#count === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /** Releases everyone waiting, owed or not (the connection closed). */
  releaseWaiters(): void {
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
