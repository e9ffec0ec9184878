import { randomBytes } from "node:crypto";
import { editSimilarity } from "@nlq/engine";
import pg from "pg";
import { percentile } from "../statistics";

export interface PgTrgmResult {
  readonly loadSeconds: number;
  readonly indexSeconds: number;
  readonly indexMegabytes: number;
  readonly latencies: number[];
  /** Best edit similarity among the top 10 by `similarity()` for each keyword queried, in order (-1 when nothing matched). */
  readonly bestSimilarities: number[];
  readonly p50: number;
  readonly p99: number;
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
  const name = `nlq_bench_trgm_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: options.serverUrl });
  await admin.connect();
  const url = new URL(options.serverUrl);
  url.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  try {
    await admin.query(`CREATE DATABASE ${name}`);
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
    for (const keyword of options.keywords.slice(0, 5)) await client.query(query, [keyword]); // warm-up
    const latencies: number[] = [];
    const bestSimilarities: number[] = [];
    const deadline = performance.now() + (options.querySeconds ?? Number.POSITIVE_INFINITY) * 1000;
    for (const keyword of options.keywords) {
      if (performance.now() > deadline) break;
      const start = performance.now();
      const result = await client.query<{ value: string }>(query, [keyword]);
      const best = Math.max(-1, ...result.rows.map((row) => editSimilarity(keyword, row.value)));
      latencies.push(performance.now() - start);
      bestSimilarities.push(best);
    }
    return {
      loadSeconds,
      indexSeconds,
      indexMegabytes: Number(size.rows[0]!.bytes) / 1e6,
      latencies,
      bestSimilarities,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
    };
  } finally {
    await client.end().catch(() => undefined);
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}
