import type { Socket } from "node:net";

/** Why reading a socket is paused. */
export type PauseReason =
  | "peer-full"
  | "queue-full"
  /** A large message waits behind a question being answered (`MessageFramer`'s `defer`). */
  | "large";

/**
 * Pauses reading one socket for several independent reasons: the socket is read again only once every
 * reason is released (the peer drained *and* the queued client input shrank), so one reason's resume
 * cannot undo another's pause.
 */
export class ReadPauses {
  readonly #socket: () => Socket | undefined;
  readonly #reasons = new Set<PauseReason>();

  constructor(socket: () => Socket | undefined) {
    this.#socket = socket;
  }

  /** True while any reason holds the socket paused. */
  get holding(): boolean {
    return this.#reasons.size > 0;
  }

  has(reason: PauseReason): boolean {
    return this.#reasons.has(reason);
  }

  hold(reason: PauseReason): void {
    if (this.#reasons.has(reason)) return;
    this.#reasons.add(reason);
    this.#socket()?.pause();
  }

  release(reason: PauseReason): void {
    if (!this.#reasons.delete(reason)) return;
    if (this.#reasons.size === 0) this.#socket()?.resume();
  }
}
