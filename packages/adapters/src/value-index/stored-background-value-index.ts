import { DEFAULT_LSH_PARAMETERS } from "@nlq/engine";
import type { MetadataDatabase } from "../metadata/metadata-database";
import { type BackgroundConnection, type BackgroundValueIndexLimits, backgroundLimits } from "./background-limits";
import type { BackgroundValueIndexSource, BackgroundValueIndexState } from "./background-value-index";
import { readBackgroundSegments } from "./read-background-values";
import { StoredValueIndex } from "./stored-value-index";
import {
  backgroundGenerationKey,
  publishedValueIndexGeneration,
  publishValueIndexGeneration,
} from "./value-index-generation";
import { acquireValueIndexLease, type ValueIndexLeaseOptions } from "./value-index-lease";

interface LocalBuild {
  building?: Promise<void>;
  failedAt?: number;
  failures?: number;
}

const FIRST_RETRY_MILLISECONDS = 60_000;
const LAST_RETRY_MILLISECONDS = 3_600_000;

/**
 * Background value indexes (databases nobody ran `nlq index` on) stored in the metadata store, once per database and
 * role, and shared by every process on that store: the first question about a database starts a build (as
 * `BackgroundValueIndexes` reads it: on a connection of its own as the asking role, within the same limits) under the
 * index's lease, so only one replica reads the database; it is published as a generation (`background:<database and
 * role>`), which every replica serves from its next question on, and rebuilt once older than
 * `refreshAfterMilliseconds` (still served meanwhile). A replica that finds the lease held leaves the build to its
 * holder; one whose holder died takes it over once the lease expired. Hits are checked under the asking session at
 * question time, as for any index.
 */
export class StoredBackgroundValueIndexes implements BackgroundValueIndexSource {
  readonly #database: MetadataDatabase;
  readonly #limits: Required<BackgroundValueIndexLimits>;
  readonly #lease: ValueIndexLeaseOptions;
  readonly #now: () => number;
  readonly #local = new Map<string, LocalBuild>();

  constructor(
    database: MetadataDatabase,
    limits: BackgroundValueIndexLimits = {},
    lease: ValueIndexLeaseOptions = {},
    now: () => number = Date.now,
  ) {
    this.#database = database;
    this.#limits = backgroundLimits(limits);
    this.#lease = lease;
    this.#now = now;
  }

  /** The stored index for `key` (a database and role), starting a build when there is none or it is stale. */
  async use(key: string, connect: () => Promise<BackgroundConnection>): Promise<BackgroundValueIndexState> {
    const generation = await publishedValueIndexGeneration(this.#database, backgroundGenerationKey(key));
    const local = this.#local.get(key) ?? {};
    this.#local.set(key, local);
    const now = this.#now();
    const fresh = generation !== undefined && this.#isFresh(generation.publishedAt);
    const retryAfter = Math.min(
      LAST_RETRY_MILLISECONDS,
      FIRST_RETRY_MILLISECONDS * 2 ** Math.max(0, (local.failures ?? 1) - 1),
    );
    const mayRetry = local.failedAt === undefined || now - local.failedAt > retryAfter;
    if (!fresh && !local.building && mayRetry) {
      local.building = this.#build(key, connect).then(
        () => {
          local.failedAt = undefined;
          local.failures = 0;
        },
        () => {
          local.failedAt = this.#now();
          local.failures = (local.failures ?? 0) + 1;
        },
      );
      void local.building.finally(() => {
        local.building = undefined;
      });
    }
    if (generation)
      return {
        index: new StoredValueIndex(this.#database, generation, DEFAULT_LSH_PARAMETERS),
        incompleteColumns: new Set(generation.incompleteColumns),
        status: "ready",
      };
    return { status: local.failedAt !== undefined && !local.building ? "failed" : "building" };
  }

  /** Resolves when this process's build for `key` (if any) has ended. For tests and benchmarks. */
  async settled(key: string): Promise<void> {
    await this.#local.get(key)?.building;
  }

  #isFresh(publishedAt: Date | null): boolean {
    return (
      publishedAt !== null && this.#now() - new Date(publishedAt).getTime() <= this.#limits.refreshAfterMilliseconds
    );
  }

  async #build(key: string, connect: () => Promise<BackgroundConnection>): Promise<void> {
    const indexKey = backgroundGenerationKey(key);
    const lease = await acquireValueIndexLease(this.#database, indexKey, this.#lease);
    if (!lease) return; // Another replica builds it now; its generation serves every replica once published.
    try {
      // Another replica may have published it between this process's look and its lease.
      const published = await publishedValueIndexGeneration(this.#database, indexKey);
      if (published && this.#isFresh(published.publishedAt)) return;
      const { segments, incompleteColumns } = await readBackgroundSegments(
        connect,
        this.#limits,
        this.#now,
        lease.signal,
      );
      await publishValueIndexGeneration(this.#database, {
        indexKey,
        parameters: DEFAULT_LSH_PARAMETERS,
        segments,
        incompleteColumns,
        lease,
      });
    } finally {
      await lease.release().catch(() => undefined);
    }
  }
}
