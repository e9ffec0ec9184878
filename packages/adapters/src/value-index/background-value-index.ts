import type { ValueIndex, ValueSearch } from "@nlq/engine";
import { DEFAULT_LSH_PARAMETERS, ValueIndexBuilder } from "@nlq/engine";
import { type BackgroundConnection, type BackgroundValueIndexLimits, backgroundLimits } from "./background-limits";
import { readBackgroundSegments } from "./read-background-values";

export { type BackgroundConnection, type BackgroundValueIndexLimits, backgroundLimits } from "./background-limits";

/** What the background build of one database has for a question. */
export interface BackgroundValueIndexState<INDEX extends ValueSearch = ValueSearch> {
  /** The finished index, once there is one (possibly being refreshed). */
  readonly index?: INDEX;
  /**
   * Columns (`columnKey`s) the finished index does not hold whole: truncated at `valuesPerColumn`, or left out by a
   * timeout, the total cap or the budget. Questions look them up live.
   */
  readonly incompleteColumns?: ReadonlySet<string>;
  readonly status: "building" | "ready" | "failed";
}

/**
 * Where background value indexes come from: this process's memory (`BackgroundValueIndexes`, without a metadata
 * store) or the metadata store, shared by every replica (`StoredBackgroundValueIndexes`).
 */
export interface BackgroundValueIndexSource {
  use(
    key: string,
    connect: () => Promise<BackgroundConnection>,
  ): BackgroundValueIndexState | Promise<BackgroundValueIndexState>;
}

interface Built {
  readonly index: ValueIndex;
  readonly incompleteColumns: ReadonlySet<string>;
}

interface Entry {
  built?: Built;
  builtAt?: number;
  building?: Promise<void>;
  failedAt?: number;
  failures?: number;
}

/**
 * A failed build (e.g. no password for a background connection) is retried after 1 minute, then twice as long after
 * each further failure, up to an hour.
 */
const FIRST_RETRY_MILLISECONDS = 60_000;
const LAST_RETRY_MILLISECONDS = 3_600_000;

/**
 * Value indexes built in the background, in memory, for databases nobody ran `nlq index` on (issue 18, item 3): on the
 * first question about a database, a build starts on a connection of its own (`connect`, as the asking role: its
 * grants and row-level security decide what is read) and questions use the bounded live lookup until it is ready.
 * The build is incremental and bounded: one column at a time, each read under `columnTimeoutMilliseconds`, at most
 * `valuesPerColumn` values per column and `totalValues` in all, within `budgetMilliseconds`, and at most `maxIndexes`
 * indexes are kept; ordinary and partitioned
 * tables only (`liveLookupColumns`), never views. Hits are still checked under the asking session at question time
 * (`createValueVisibility`), as for an index `nlq index` built. Keyed by whatever identifies database and role (the
 * target URL without password).
 */
export class BackgroundValueIndexes implements BackgroundValueIndexSource {
  readonly #entries = new Map<string, Entry>();
  readonly #limits: Required<BackgroundValueIndexLimits>;
  readonly #now: () => number;

  constructor(limits: BackgroundValueIndexLimits = {}, now: () => number = Date.now) {
    this.#limits = backgroundLimits(limits);
    this.#now = now;
  }

  /**
   * The state for `key`, starting (or restarting, when stale or failed long enough ago) a build through `connect`.
   * Never throws: a failed build only leaves the live lookup in use.
   */
  use(key: string, connect: () => Promise<BackgroundConnection>): BackgroundValueIndexState<ValueIndex> {
    const entry = this.#entries.get(key) ?? {};
    // Most recently used last; past the limit the least recently used index is dropped (its build, if running, ends
    // unused).
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    while (this.#entries.size > this.#limits.maxIndexes) this.#entries.delete(this.#entries.keys().next().value!);
    const now = this.#now();
    const stale = entry.builtAt !== undefined && now - entry.builtAt > this.#limits.refreshAfterMilliseconds;
    const retryAfter = Math.min(
      LAST_RETRY_MILLISECONDS,
      FIRST_RETRY_MILLISECONDS * 2 ** Math.max(0, (entry.failures ?? 1) - 1),
    );
    const mayRetry = entry.failedAt === undefined || now - entry.failedAt > retryAfter;
    if (!entry.building && (entry.built === undefined || stale) && mayRetry) {
      entry.building = this.#build(connect).then(
        (built) => {
          entry.built = built;
          entry.builtAt = this.#now();
          entry.failedAt = undefined;
          entry.failures = 0;
        },
        () => {
          entry.failedAt = this.#now();
          entry.failures = (entry.failures ?? 0) + 1;
        },
      );
      void entry.building.finally(() => {
        entry.building = undefined;
      });
    }
    if (entry.built) return { ...entry.built, status: "ready" };
    return { status: entry.failedAt !== undefined && !entry.building ? "failed" : "building" };
  }

  /** Resolves when the build running for `key` (if any) has ended. For tests and benchmarks. */
  async settled(key: string): Promise<void> {
    await this.#entries.get(key)?.building;
  }

  async #build(connect: () => Promise<BackgroundConnection>): Promise<Built> {
    const { segments, incompleteColumns } = await readBackgroundSegments(connect, this.#limits, this.#now);
    const builder = new ValueIndexBuilder(DEFAULT_LSH_PARAMETERS);
    for (const segment of segments) builder.addSegment(segment);
    return { index: builder.build(), incompleteColumns };
  }
}
