import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** How long no session parked before the collection runs (a burst of logins is over). */
export const PARKING_QUIET_MILLISECONDS = 500;
/** Sessions parked since the last collection before one is worth its pause. */
export const PARKED_SESSIONS_PER_COLLECTION = 256;

/**
 * V8's full collection (`gc`), from a context created after `--expose-gc` is set; undefined where the flag cannot be
 * set this way. Asking for it does not change anything else in this process.
 */
export function fullCollection(): (() => void) | undefined {
  try {
    setFlagsFromString("--expose-gc");
    const collect: unknown = runInNewContext("gc");
    if (typeof collect !== "function") return undefined;
    return () => {
      // Compacting: the pages the logins' garbage filled hold a parked session's record here and there, and a
      // collection that leaves them in place frees none of them. Only this collection compacts every page.
      setFlagsFromString("--compact-on-every-full-gc");
      try {
        (collect as () => void)();
      } finally {
        setFlagsFromString("--no-compact-on-every-full-gc");
      }
    };
  } catch {
    return undefined;
  }
}

/**
 * Gives back the memory a burst of logins left behind once their sessions are parked (issue 30 item 3). Each login
 * allocates its connection's state machine, framers and sockets; a parked session lets them all go, but they were
 * promoted to V8's old space while the session logged in, and an idle proxy allocates nothing that would start a full
 * collection: the garbage stays resident (about 5 KiB per session measured at 2,000 sessions). So once
 * `minimumParked` sessions have parked since the last collection and none has for `quietMilliseconds`, one full
 * collection runs. Its pause stops only JavaScript: the relay thread keeps moving the relayed sessions' bytes.
 */
export class CollectAfterParking {
  readonly #collect: (() => void) | undefined;
  readonly #quietMilliseconds: number;
  readonly #minimumParked: number;
  #parkedSinceCollection = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    options: {
      readonly quietMilliseconds?: number;
      readonly minimumParked?: number;
      readonly collect?: () => void;
    } = {},
  ) {
    this.#collect = options.collect ?? fullCollection();
    this.#quietMilliseconds = options.quietMilliseconds ?? PARKING_QUIET_MILLISECONDS;
    this.#minimumParked = options.minimumParked ?? PARKED_SESSIONS_PER_COLLECTION;
  }

  /** A session parked: (re)starts the quiet period once enough have. */
  parked(): void {
    if (this.#collect === undefined) return;
    this.#parkedSinceCollection += 1;
    if (this.#parkedSinceCollection < this.#minimumParked) return;
    if (this.#timer !== undefined) this.#timer.refresh();
    else {
      this.#timer = setTimeout(() => this.#run(), this.#quietMilliseconds);
      this.#timer.unref();
    }
  }

  /** No collection pending any more (the server closes). */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #run(): void {
    this.#timer = undefined;
    this.#parkedSinceCollection = 0;
    this.#collect?.();
  }
}
