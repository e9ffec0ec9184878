import { NlqError } from "@nlq/engine";

const signInThrottledErrorMarker = Symbol.for("nlq.error.SignInThrottledError");

/**
 * Too many refused sign-ins for this role or from this address lately. SQLSTATE 08004 (the server rejected the
 * establishment of the connection); answered 429 with `Retry-After`.
 */
export class SignInThrottledError extends NlqError {
  readonly [signInThrottledErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is SignInThrottledError {
    return NlqError.hasMarker(error, signInThrottledErrorMarker);
  }

  /** Seconds until a sign-in for this role from this address is tried again. */
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super(
      `Too many refused sign-ins: try again in ${formatWait(retryAfterSeconds)}. ` +
        "Attempts are limited per user name and per address.",
      { code: "08004" },
    );
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

function formatWait(seconds: number): string {
  return seconds < 90 ? `${seconds} s` : `${Math.ceil(seconds / 60)} min`;
}

/** How many refused sign-ins a window allows. */
export interface AttemptLimit {
  readonly attempts: number;
  readonly windowMilliseconds: number;
}

export interface SignInThrottleOptions {
  /** Refused sign-ins per role name (from any address). Default 5 per 15 minutes. */
  readonly perRole?: AttemptLimit;
  /** Refused sign-ins per client address (for any role). Default 20 per 15 minutes. */
  readonly perAddress?: AttemptLimit;
  /** Most roles and addresses remembered at once; the oldest are forgotten first. Default 10,000. */
  readonly maximumEntries?: number;
  /** Clock, for tests. Default `Date.now`. */
  readonly now?: () => number;
}

export interface SignInThrottle {
  /**
   * Throws `SignInThrottledError` when the role or the address has used up its refused attempts. An undefined
   * address (unknown: no proxy header) is limited per role only.
   */
  check(role: string, address: string | undefined): void;
  /** Counts a sign-in PostgreSQL refused (wrong password, no such role). */
  recordRefusal(role: string, address: string | undefined): void;
  /** A sign-in succeeded: the role's refusals are forgotten (the address's are kept). */
  recordSuccess(role: string): void;
}

const defaultSignInLimits = {
  perRole: { attempts: 5, windowMilliseconds: 15 * 60_000 },
  perAddress: { attempts: 20, windowMilliseconds: 15 * 60_000 },
} as const;

/**
 * Limits password guessing through the web app's sign-in, as a PostgreSQL server alone does not (it answers every
 * attempt): refusals are counted per role and per client address in a sliding window; once either limit is reached,
 * attempts for that role or from that address are answered 429 without asking PostgreSQL until the oldest refusal
 * leaves the window. Only refusals count, so a user who signs in correctly is never slowed down by their own use.
 * In server memory: a restart forgets the counts.
 */
export function createSignInThrottle(options: SignInThrottleOptions = {}): SignInThrottle {
  const perRole = options.perRole ?? defaultSignInLimits.perRole;
  const perAddress = options.perAddress ?? defaultSignInLimits.perAddress;
  const maximumEntries = options.maximumEntries ?? 10_000;
  const now = options.now ?? Date.now;
  // Refusal times, oldest first, per key ("role:<name>", "address:<address>"); Map order = least recently refused.
  const refusals = new Map<string, number[]>();

  function recent(key: string, limit: AttemptLimit, at: number): number[] {
    const times = (refusals.get(key) ?? []).filter((time) => time > at - limit.windowMilliseconds);
    if (times.length === 0) refusals.delete(key);
    else refusals.set(key, times);
    return times;
  }

  function waitSeconds(key: string, limit: AttemptLimit, at: number): number {
    const times = recent(key, limit, at);
    if (times.length < limit.attempts) return 0;
    const freedAt = times[times.length - limit.attempts]! + limit.windowMilliseconds;
    return Math.max(1, Math.ceil((freedAt - at) / 1000));
  }

  function add(key: string, limit: AttemptLimit, at: number): void {
    const times = recent(key, limit, at);
    times.push(at);
    refusals.delete(key);
    refusals.set(key, times.slice(-limit.attempts));
    while (refusals.size > maximumEntries) refusals.delete(refusals.keys().next().value!);
  }

  return {
    check(role, address) {
      const at = now();
      const wait = Math.max(
        waitSeconds(`role:${role}`, perRole, at),
        address === undefined ? 0 : waitSeconds(`address:${address}`, perAddress, at),
      );
      if (wait > 0) throw new SignInThrottledError(wait);
    },
    recordRefusal(role, address) {
      const at = now();
      add(`role:${role}`, perRole, at);
      if (address !== undefined) add(`address:${address}`, perAddress, at);
    },
    recordSuccess(role) {
      refusals.delete(`role:${role}`);
    },
  };
}

/**
 * The client address of a request, for the per-address limit: the first `X-Forwarded-For` entry, else `X-Real-IP`,
 * else undefined. Next.js route handlers do not see the socket, and one shared count for every client without such a
 * header would let one guesser lock everyone out, so those are limited per role only. A forged header only moves a
 * client into another address's count: the per-role limit still holds.
 */
export function clientAddress(request: Request): string | undefined {
  const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  if (forwarded) return forwarded.slice(0, 100);
  const real = request.headers.get("x-real-ip")?.trim();
  return real ? real.slice(0, 100) : undefined;
}

const globalScope = globalThis as { __nlqSignInThrottle?: SignInThrottle };

/** The web app's one throttle (on `globalThis`, so dev-mode reloads keep the counts). */
export function webSignInThrottle(): SignInThrottle {
  globalScope.__nlqSignInThrottle ??= createSignInThrottle();
  return globalScope.__nlqSignInThrottle;
}
