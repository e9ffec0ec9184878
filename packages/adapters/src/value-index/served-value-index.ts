import { columnKey, DEFAULT_LSH_PARAMETERS, type LshParameters, lshParametersKey } from "@nlq/engine";
import type { MetadataDatabase } from "../metadata/metadata-database";
import type { ValueIndexGenerationRow } from "../metadata/schema/value-index-generations";
import { StoredValueIndex } from "./stored-value-index";
import {
  dataSourceIndexKey,
  publishedValueIndexGeneration,
  publishValueIndexGeneration,
} from "./value-index-generation";
import { acquireValueIndexLease, type ValueIndexLease, type ValueIndexLeaseOptions } from "./value-index-lease";
import { ValueIndexStore } from "./value-index-store";

/** What a question of an indexed data source gets from the store's value index. */
export interface ServedValueIndex {
  /** The published generation (possibly stale while a newer one is built), when there is one. */
  readonly index?: StoredValueIndex;
  /** Columns (`columnKey`s) the index does not hold whole: looked up live. */
  readonly incompleteColumns: ReadonlySet<string>;
  /** The rebuild this call started (no published generation, or one of older stored columns), for tests. */
  readonly rebuilding?: Promise<ValueIndexGenerationRow | undefined>;
}

/** Rebuilds running in this process, by index key: one at a time per key (others are refused by the lease). */
const rebuilds = new Map<string, Promise<ValueIndexGenerationRow | undefined>>();

/**
 * The value index of a data source `nlq index` built, as the metadata store serves it. Nothing is loaded: the
 * published generation is searched in the store (`StoredValueIndex`). When there is none, or it was built from another
 * state of the stored columns (an index from before generations existed: migration 0009 keeps its chunks and it is
 * rebuilt here on first use), a rebuild starts in the background under the index's lease and questions keep the stale
 * generation, or the live lookup, until it is published.
 */
export async function servedDataSourceValueIndex(
  database: MetadataDatabase,
  dataSourceId: string,
  options: ValueIndexLeaseOptions & { readonly parameters?: LshParameters } = {},
): Promise<ServedValueIndex> {
  const parameters = options.parameters ?? DEFAULT_LSH_PARAMETERS;
  const indexKey = dataSourceIndexKey(dataSourceId);
  const [published, stamp] = await Promise.all([
    publishedValueIndexGeneration(database, indexKey),
    new ValueIndexStore(database).sourceStamp(dataSourceId, parameters),
  ]);
  const usable = published && published.parametersKey === lshParametersKey(parameters) ? published : undefined;
  let rebuilding: Promise<ValueIndexGenerationRow | undefined> | undefined;
  if (!usable || usable.sourceStamp !== stamp) {
    rebuilding = rebuilds.get(indexKey);
    if (!rebuilding) {
      rebuilding = publishDataSourceValueIndex(database, dataSourceId, { ...options, parameters, wait: false })
        .catch(() => undefined) // A failed rebuild leaves the stale generation (or the live lookup); the next question retries.
        .finally(() => rebuilds.delete(indexKey));
      rebuilds.set(indexKey, rebuilding);
    }
  }
  return {
    ...(usable ? { index: new StoredValueIndex(database, usable, parameters) } : {}),
    incompleteColumns: new Set(usable?.incompleteColumns ?? []),
    ...(rebuilding ? { rebuilding } : {}),
  };
}

/**
 * Publishes a new generation of a data source's value index from its stored columns, under the index's lease: with
 * `wait` (what `nlq index` does), waits for a builder holding it to finish or its lease to expire; without, gives up
 * (undefined) when another process holds it. A generation already built from the current columns is kept.
 */
export async function publishDataSourceValueIndex(
  database: MetadataDatabase,
  dataSourceId: string,
  options: ValueIndexLeaseOptions & {
    readonly parameters?: LshParameters;
    readonly wait?: boolean;
    /** A lease the caller already holds (and releases itself). */
    readonly lease?: ValueIndexLease;
  } = {},
): Promise<ValueIndexGenerationRow | undefined> {
  const parameters = options.parameters ?? DEFAULT_LSH_PARAMETERS;
  const indexKey = dataSourceIndexKey(dataSourceId);
  const lease = options.lease ?? (await dataSourceValueIndexLease(database, dataSourceId, options));
  if (!lease) return undefined;
  try {
    const store = new ValueIndexStore(database);
    const stamp = await store.sourceStamp(dataSourceId, parameters);
    const published = await publishedValueIndexGeneration(database, indexKey);
    if (published && published.sourceStamp === stamp && published.parametersKey === lshParametersKey(parameters))
      return published;
    const columns = await store.listColumns(dataSourceId);
    return await publishValueIndexGeneration(database, {
      indexKey,
      dataSourceId,
      parameters,
      segments: store.iterateSegments(dataSourceId, parameters),
      sourceStamp: stamp,
      incompleteColumns: columns.filter((column) => column.truncated).map((column) => columnKey(column.column)),
      lease,
    });
  } finally {
    if (!options.lease) await lease.release().catch(() => undefined);
  }
}

/**
 * The lease on building a data source's value index: with `wait`, waits for a builder holding it to finish or its lease
 * to expire; without, undefined when another process holds it. `nlq index` holds it for its whole run, so that
 * processes answering questions meanwhile do not rebuild from the columns it is still writing.
 */
export async function dataSourceValueIndexLease(
  database: MetadataDatabase,
  dataSourceId: string,
  options: ValueIndexLeaseOptions & { readonly wait?: boolean } = {},
): Promise<ValueIndexLease | undefined> {
  const indexKey = dataSourceIndexKey(dataSourceId);
  let lease = await acquireValueIndexLease(database, indexKey, options);
  while (!lease && options.wait) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    lease = await acquireValueIndexLease(database, indexKey, options);
  }
  return lease;
}
