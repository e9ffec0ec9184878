import { randomBytes } from "node:crypto";
import pg from "pg";
import { percentile } from "../statistics";

/** Per-keyword latencies and best matches of one index, with their percentiles. */
export interface TimedLookups {
  readonly latencies: number[];
  /** The best edit similarity each keyword's lookup found (-1 when nothing matched), in order. */
  readonly bestSimilarities: number[];
  readonly p50: number;
  readonly p99: number;
}

/**
 * Times `lookup` (which returns the best edit similarity it found) for each keyword in turn, after `warmUp` untimed
 * lookups of the first keywords, until the keywords or `querySeconds` run out (the remaining keywords are not
 * measured).
 */
export async function timeLookups(
  keywords: readonly string[],
  lookup: (keyword: string) => Promise<number>,
  options: { readonly warmUp: number; readonly querySeconds?: number },
): Promise<TimedLookups> {
  for (const keyword of keywords.slice(0, options.warmUp)) await lookup(keyword);
  const latencies: number[] = [];
  const bestSimilarities: number[] = [];
  const deadline = performance.now() + (options.querySeconds ?? Number.POSITIVE_INFINITY) * 1000;
  for (const keyword of keywords) {
    if (performance.now() > deadline) break;
    const start = performance.now();
    const best = await lookup(keyword);
    latencies.push(performance.now() - start);
    bestSimilarities.push(best);
  }
  return { latencies, bestSimilarities, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

/**
 * Runs `work` with the URL of a database created for it on `serverUrl` (named `<prefix>_<random>`), dropped
 * afterwards whatever happens (`WITH (FORCE)`: connections `work` left open do not keep it).
 */
export async function withThrowawayDatabase<T>(
  serverUrl: string,
  prefix: string,
  work: (url: string) => Promise<T>,
): Promise<T> {
  const name = `${prefix}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  try {
    await admin.query(`CREATE DATABASE ${name}`);
    return await work(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}
