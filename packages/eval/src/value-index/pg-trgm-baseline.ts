import { editSimilarity } from "@nlq/engine";
import pg from "pg";
import { type TimedLookups, timeLookups, withThrowawayDatabase } from "./timed-lookups";

export interface PgTrgmResult extends TimedLookups {
  readonly loadSeconds: number;
  readonly indexSeconds: number;
  readonly indexMegabytes: number;
}

/**
 * PostgreSQL's own answer to fuzzy lookup: the same values in a throwaway database with a GIN trigram index,
 * queried with `value % keyword ORDER BY similarity(value, keyword) DESC LIMIT 10` (pg_trgm's default
 * similarity threshold 0.3), then the 10 rows reranked by edit distance like the value index does.
 * The database is dropped afterwards.
 */
export async function runPgTrgmBaseline(options: {
  readonly serverUrl: string;
  readonly values: Iterable<string>;
  readonly keywords: readonly string[];
  /** Stop querying after this many seconds (the remaining keywords are not measured). Default no limit. */
  readonly querySeconds?: number;
  readonly log?: (line: string) => void;
}): Promise<PgTrgmResult> {
  return withThrowawayDatabase(options.serverUrl, "nlq_bench_trgm", async (url) => {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query("CREATE EXTENSION IF NOT EXISTS pg_trgm");
      await client.query("CREATE UNLOGGED TABLE bench_values (value text NOT NULL)");
      const loadStart = performance.now();
      let batch: string[] = [];
      const flush = async () => {
        if (batch.length === 0) return;
        await client.query("INSERT INTO bench_values SELECT unnest($1::text[])", [batch]);
        batch = [];
      };
      for (const value of options.values) {
        batch.push(value);
        if (batch.length === 50_000) await flush();
      }
      await flush();
      const loadSeconds = (performance.now() - loadStart) / 1000;
      const indexStart = performance.now();
      await client.query("CREATE INDEX bench_values_trgm ON bench_values USING gin (value gin_trgm_ops)");
      await client.query("ANALYZE bench_values");
      const indexSeconds = (performance.now() - indexStart) / 1000;
      const size = await client.query<{ bytes: string }>("SELECT pg_relation_size('bench_values_trgm')::text AS bytes");
      options.log?.(`pg_trgm: loaded in ${loadSeconds.toFixed(1)} s, GIN index in ${indexSeconds.toFixed(1)} s`);
      const query = "SELECT value FROM bench_values WHERE value % $1 ORDER BY similarity(value, $1) DESC LIMIT 10";
      // The 10 rows reranked by edit distance, as the value index does, inside the timed lookup.
      const timed = await timeLookups(
        options.keywords,
        async (keyword) => {
          const result = await client.query<{ value: string }>(query, [keyword]);
          return Math.max(-1, ...result.rows.map((row) => editSimilarity(keyword, row.value)));
        },
        { warmUp: 5, ...(options.querySeconds === undefined ? {} : { querySeconds: options.querySeconds }) },
      );
      return { loadSeconds, indexSeconds, indexMegabytes: Number(size.rows[0]!.bytes) / 1e6, ...timed };
    } finally {
      await client.end().catch(() => undefined);
    }
  });
}
