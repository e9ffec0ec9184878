import {
  acquireValueIndexLease,
  openMetadataStore,
  publishValueIndexGeneration,
  StoredValueIndex,
} from "@nlq/adapters";
import {
  type ColumnSegment,
  DEFAULT_LSH_PARAMETERS,
  hashColumnSegment,
  retrieveEntities,
  type ValueIndex,
} from "@nlq/engine";
import pg from "pg";
import { type TimedLookups, timeLookups, withThrowawayDatabase } from "./timed-lookups";

export interface StoredIndexResult extends TimedLookups {
  /** Seconds to write the values and group the buckets (publish included). */
  readonly publishSeconds: number;
  /** On-disk size of the generation's values and buckets with their b-trees, in MB (10^6 bytes). */
  readonly diskMegabytes: number;
}

/** The in-memory index's columns as segments, column after column (its entries are stored in column order). */
function* segmentsOf(index: ValueIndex): Generator<ColumnSegment> {
  let values: string[] = [];
  let column = -1;
  for (let entry = 0; entry < index.size; entry++) {
    const entryColumn = index.columnIndexOf(entry);
    if (entryColumn !== column && values.length > 0) {
      yield hashColumnSegment(index.columns[column]!, values, DEFAULT_LSH_PARAMETERS);
      values = [];
    }
    column = entryColumn;
    values.push(index.valueAt(entry));
  }
  if (values.length > 0) yield hashColumnSegment(index.columns[column]!, values, DEFAULT_LSH_PARAMETERS);
}

/**
 * The value index as the metadata store serves it (`StoredValueIndex`): the same values published as a generation in a
 * throwaway metadata database on `serverUrl`, then each keyword looked up through `retrieveEntities` (one statement per
 * keyword). The database is dropped afterwards.
 */
export async function runStoredIndexBaseline(options: {
  readonly serverUrl: string;
  readonly index: ValueIndex;
  readonly keywords: readonly string[];
  readonly querySeconds?: number;
  readonly log?: (line: string) => void;
}): Promise<StoredIndexResult> {
  return withThrowawayDatabase(options.serverUrl, "nlq_bench_stored", async (url) => {
    const store = await openMetadataStore({ url });
    try {
      const lease = (await acquireValueIndexLease(store.database, "bench:stored", { ttlMilliseconds: 3_600_000 }))!;
      const publishStart = performance.now();
      const generation = await publishValueIndexGeneration(store.database, {
        indexKey: "bench:stored",
        parameters: DEFAULT_LSH_PARAMETERS,
        segments: segmentsOf(options.index),
        lease,
      });
      const publishSeconds = (performance.now() - publishStart) / 1000;
      await lease.release();
      const sizes = new pg.Client({ connectionString: url });
      await sizes.connect();
      let diskMegabytes: number;
      try {
        await sizes.query("VACUUM ANALYZE value_index_values");
        await sizes.query("VACUUM ANALYZE value_index_buckets");
        const size = await sizes.query<{ bytes: string }>(
          "SELECT (pg_total_relation_size('value_index_values') + pg_total_relation_size('value_index_buckets'))::text AS bytes",
        );
        diskMegabytes = Number(size.rows[0]!.bytes) / 1e6;
      } finally {
        await sizes.end();
      }
      options.log?.(
        `stored index: published in ${publishSeconds.toFixed(1)} s, ${diskMegabytes.toFixed(0)} MB on disk`,
      );
      const stored = new StoredValueIndex(store.database, generation, DEFAULT_LSH_PARAMETERS);
      const timed = await timeLookups(
        options.keywords,
        async (keyword) => {
          const [result] = await retrieveEntities({ index: stored, keywords: [keyword], readableColumns: "all" });
          return result!.matches[0]?.editSimilarity ?? -1;
        },
        { warmUp: 20, ...(options.querySeconds === undefined ? {} : { querySeconds: options.querySeconds }) },
      );
      return { publishSeconds, diskMegabytes, ...timed };
    } finally {
      await store.close();
    }
  });
}
