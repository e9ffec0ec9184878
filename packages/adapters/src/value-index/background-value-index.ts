import type { QueryExecutor, ValueIndex } from "@nlq/engine";
import {
  columnKey,
  DEFAULT_LSH_PARAMETERS,
  introspectCatalog,
  liveLookupColumns,
  runReadOnly,
  selectColumnValues,
  ValueIndexBuilder,
  valueReadPolicy,
} from "@nlq/engine";
import { fetchDistinctValues } from "./index-database-values";

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
export interface BackgroundValueIndexState {
  /** The finished index, once there is one (possibly being refreshed). */
  readonly index?: ValueIndex;
  /**
   * Columns (`columnKey`s) the finished index does not hold whole: truncated at `valuesPerColumn`, or left out by a
   * timeout, the total cap or the budget. Questions look them up live.
   */
  readonly incompleteColumns?: ReadonlySet<string>;
  readonly status: "building" | "ready" | "failed";
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
export class BackgroundValueIndexes {
  readonly #entries = new Map<string, Entry>();
  readonly #limits: Required<BackgroundValueIndexLimits>;
  readonly #now: () => number;

  constructor(limits: BackgroundValueIndexLimits = {}, now: () => number = Date.now) {
    this.#limits = {
      valuesPerColumn: limits.valuesPerColumn ?? 20_000,
      totalValues: limits.totalValues ?? 250_000,
      maxIndexes: limits.maxIndexes ?? 8,
      columnTimeoutMilliseconds: limits.columnTimeoutMilliseconds ?? 5_000,
      budgetMilliseconds: limits.budgetMilliseconds ?? 600_000,
      refreshAfterMilliseconds: limits.refreshAfterMilliseconds ?? 3_600_000,
    };
    this.#now = now;
  }

  /**
   * The state for `key`, starting (or restarting, when stale or failed long enough ago) a build through `connect`.
   * Never throws: a failed build only leaves the live lookup in use.
   */
  use(key: string, connect: () => Promise<BackgroundConnection>): BackgroundValueIndexState {
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
    const started = this.#now();
    const connection = await connect();
    try {
      const scope = { session: connection.executor, statementTimeoutMilliseconds: 30_000 };
      const { catalog, policy } = await runReadOnly(scope, async (query) => ({
        catalog: await introspectCatalog(query),
        policy: await valueReadPolicy(query),
      }));
      const builder = new ValueIndexBuilder(DEFAULT_LSH_PARAMETERS);
      const limits = this.#limits;
      const incompleteColumns = new Set<string>();
      for (const table of catalog.tables) {
        for (const column of liveLookupColumns(table)) {
          if (this.#now() - started > limits.budgetMilliseconds || builder.size >= limits.totalValues) {
            incompleteColumns.add(columnKey(column));
            continue;
          }
          const dataType = table.columns.find((candidate) => candidate.name === column.column)?.dataType ?? "text";
          let sample: string[];
          try {
            sample = await runReadOnly(
              { session: connection.executor, statementTimeoutMilliseconds: limits.columnTimeoutMilliseconds },
              (query) =>
                fetchDistinctValues(
                  { name: "background-value-index", query: ({ sql }) => query(sql) },
                  column,
                  Math.min(limits.valuesPerColumn, limits.totalValues - builder.size) + 1,
                  undefined,
                  policy,
                ),
            );
          } catch {
            incompleteColumns.add(columnKey(column)); // A slow or unreadable column is left out; the others count.
            continue;
          }
          const selection = selectColumnValues({ name: column.column, dataType }, sample, {
            maxValuesPerColumn: Math.min(limits.valuesPerColumn, limits.totalValues - builder.size),
          });
          if (selection.keep) builder.addColumn(column, selection.values);
          if (selection.keep && selection.truncated) incompleteColumns.add(columnKey(column));
          // Yield between columns, so a large build never holds the event loop.
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
      return { index: builder.build(), incompleteColumns };
    } finally {
      await connection.close().catch(() => undefined);
    }
  }
}
