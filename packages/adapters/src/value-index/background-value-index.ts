import type { QueryExecutor, ValueIndex, ValueSearch } from "@nlq/engine";
import { DEFAULT_LSH_PARAMETERS, ValueIndexBuilder } from "@nlq/engine";
import { readBackgroundSegments } from "./read-background-values";

/** A connection the background build owns: closed when the build ends. */
export interface BackgroundConnection {
  readonly executor: QueryExecutor;
  close(): Promise<void>;
}

export interface BackgroundValueIndexLimits {
  /** Distinct values read per column (a truncated column keeps the first ones). Default 20,000. */
  readonly valuesPerColumn?: number;
  /** Values in one index; columns past it are left out (memory: about 190 bytes a value, ~48 MB). Default 250,000. */
  readonly totalValues?: number;
  /** Indexes (databases × roles) kept; the least recently used one is dropped past it. Default 8. */
  readonly maxIndexes?: number;
  /** `statement_timeout` of each column's read, in milliseconds; a slow column is left out. Default 5,000. */
  readonly columnTimeoutMilliseconds?: number;
  /** Wall-clock budget of one build; columns not read by then are left out. Default 600,000 (10 minutes). */
  readonly budgetMilliseconds?: number;
  /** A finished index older than this is rebuilt in the background on its next use (still served meanwhile). Default 1 hour. */
  readonly refreshAfterMilliseconds?: number;
}

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

/** `limits` with every default filled in. */
export function backgroundLimits(limits: BackgroundValueIndexLimits): Required<BackgroundValueIndexLimits> {
  return {
    valuesPerColumn: limits.valuesPerColumn ?? 20_000,
    totalValues: limits.totalValues ?? 250_000,
    maxIndexes: limits.maxIndexes ?? 8,
    columnTimeoutMilliseconds: limits.columnTimeoutMilliseconds ?? 5_000,
    budgetMilliseconds: limits.budgetMilliseconds ?? 600_000,
    refreshAfterMilliseconds: limits.refreshAfterMilliseconds ?? 3_600_000,
  };
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
