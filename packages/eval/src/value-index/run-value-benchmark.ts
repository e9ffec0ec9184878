import { testServerUrl } from "@nlq/adapters/testing";
import {
  DEFAULT_LSH_PARAMETERS,
  describeSCurve,
  normalizeValue,
  retrieveEntities,
  seededRandom,
  ValueIndexBuilder,
} from "@nlq/engine";
import { percentile } from "../statistics";
import { levelColumns, realValueCount } from "./benchmark-data";
import { bruteForceBest } from "./brute-force";
import { typoKeyword } from "./generate-values";
import { type PgTrgmResult, runPgTrgmBaseline } from "./pg-trgm-baseline";
import { DEFAULT_SPIDER_DIRECTORY, loadSpiderColumnValues } from "./spider-values";
import { runStoredIndexBaseline, type StoredIndexResult } from "./stored-baseline";

export interface ValueBenchmarkOptions {
  /** Numbers of distinct values to index, one run each. Default [100_000, 1_000_000, 10_000_000]. */
  readonly levels?: readonly number[];
  /** Typo'd keywords queried per level. Default 200. */
  readonly keywords?: number;
  /** At most this many keywords get the brute-force reference (for recall and its latency) per level. Default 200. */
  readonly bruteForceKeywords?: number;
  /**
   * Brute force (and pg_trgm's querying) stop after this many seconds per level; recall is then over the keywords
   * finished. Default 300.
   */
  readonly bruteForceSeconds?: number;
  /** pg_trgm is compared on levels up to this size; 0 disables it. Default 1_000_000. */
  readonly pgTrgmMaxLevel?: number;
  /**
   * The index as the metadata store serves it (`StoredValueIndex`, a throwaway metadata database) is compared on levels
   * up to this size; 0 disables it. Default 1_000_000.
   */
  readonly storedMaxLevel?: number;
  /** Server for pg_trgm and the stored index (throwaway databases are created and dropped). Default the local PostgreSQL. */
  readonly serverUrl?: string;
  /** Spider warehouse databases directory. Default `../shared/data/spider-warehouse/databases`. */
  readonly spiderDirectory?: string;
  /** Seed of generated values and keywords. Default 7. */
  readonly seed?: number;
  readonly log?: (line: string) => void;
}

export interface LevelResult {
  readonly values: number;
  readonly realValues: number;
  readonly columns: number;
  readonly buildSeconds: number;
  readonly valuesPerSecond: number;
  readonly indexMegabytes: number;
  readonly rssMegabytes: number;
  readonly heapMegabytes: number;
  readonly keywords: number;
  readonly p50: number;
  readonly p99: number;
  readonly bruteForceKeywords: number;
  readonly recall: number;
  readonly bruteForceP50: number;
  readonly pgTrgm: (PgTrgmResult & { readonly recall: number; readonly recallKeywords: number }) | undefined;
  readonly stored: (StoredIndexResult & { readonly recall: number; readonly recallKeywords: number }) | undefined;
}

export interface ValueBenchmarkResult {
  readonly parameters: string;
  readonly levels: LevelResult[];
}

const megabytes = (bytes: number) => bytes / 1024 / 1024;

/** Builds the value index at each level and measures it against brute force and pg_trgm. */
export async function runValueBenchmark(options: ValueBenchmarkOptions = {}): Promise<ValueBenchmarkResult> {
  const log = options.log ?? (() => {});
  const seed = options.seed ?? 7;
  const real = loadSpiderColumnValues(options.spiderDirectory ?? DEFAULT_SPIDER_DIRECTORY);
  log(
    `spider warehouse: ${real.reduce((sum, column) => sum + column.values.length, 0)} values in ${real.length} text columns`,
  );
  const levels: LevelResult[] = [];
  for (const level of options.levels ?? [100_000, 1_000_000, 10_000_000]) {
    levels.push(await runLevel(level, real, seed, options, log));
  }
  return {
    parameters: `bands=${DEFAULT_LSH_PARAMETERS.bands} rows=${DEFAULT_LSH_PARAMETERS.rows} (${describeSCurve(DEFAULT_LSH_PARAMETERS)})`,
    levels,
  };
}

async function runLevel(
  level: number,
  real: Parameters<typeof levelColumns>[0],
  seed: number,
  options: ValueBenchmarkOptions,
  log: (line: string) => void,
): Promise<LevelResult> {
  log(`level ${level}: generating values`);
  let columns = levelColumns(real, level, seed);
  const columnCount = columns.length;
  const realValues = realValueCount(columns);
  const buildStart = performance.now();
  const builder = new ValueIndexBuilder();
  let peakRss = process.memoryUsage.rss();
  for (const column of columns) {
    builder.addColumn(column.column, column.values);
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }
  columns = []; // the index keeps its own compact copy
  const index = builder.build();
  const buildSeconds = (performance.now() - buildStart) / 1000;
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
  const heapMegabytes = megabytes(process.memoryUsage().heapUsed);
  log(
    `level ${level}: built ${index.size} values in ${buildSeconds.toFixed(1)} s (${megabytes(index.byteSize).toFixed(0)} MB of typed arrays)`,
  );

  const random = seededRandom(seed * 31 + level);
  const keywords: string[] = [];
  while (keywords.length < (options.keywords ?? 200)) {
    const value = index.valueAt(Math.floor(random() * index.size));
    if (value.length >= 5) keywords.push(typoKeyword(value, random));
  }
  const search = (keyword: string) => retrieveEntities({ index, keywords: [keyword], readableColumns: "all" });
  for (const keyword of keywords.slice(0, 20)) await search(keyword); // warm-up
  const latencies: number[] = [];
  const found: number[] = [];
  for (const keyword of keywords) {
    const start = performance.now();
    const [result] = await search(keyword);
    latencies.push(performance.now() - start);
    found.push(result!.matches[0]?.editSimilarity ?? -1);
  }
  log(
    `level ${level}: value index p50 ${percentile(latencies, 50).toFixed(2)} ms, p99 ${percentile(latencies, 99).toFixed(2)} ms`,
  );

  const normalizedValues = Array.from({ length: index.size }, (_, entry) => normalizeValue(index.valueAt(entry)));
  const bruteLimit = Math.min(keywords.length, options.bruteForceKeywords ?? 200);
  const bruteDeadline = performance.now() + (options.bruteForceSeconds ?? 300) * 1000;
  const bruteLatencies: number[] = [];
  const bruteBest: number[] = [];
  for (let position = 0; position < bruteLimit && performance.now() < bruteDeadline; position++) {
    const start = performance.now();
    bruteBest.push(bruteForceBest(keywords[position]!, normalizedValues).similarity);
    bruteLatencies.push(performance.now() - start);
  }
  /** Share of keywords (with both a reference and a result) whose best match is as close as brute force's. */
  const recallOver = (best: readonly number[]) => {
    const compared = Math.min(best.length, bruteBest.length);
    let hits = 0;
    for (let position = 0; position < compared; position++) if (best[position]! >= bruteBest[position]! - 1e-9) hits++;
    return { recall: hits / Math.max(1, compared), compared };
  };
  log(
    `level ${level}: brute force over ${bruteBest.length} keywords, p50 ${percentile(bruteLatencies, 50).toFixed(0)} ms`,
  );

  let pgTrgm: LevelResult["pgTrgm"];
  if (level <= (options.pgTrgmMaxLevel ?? 1_000_000)) {
    const result = await runPgTrgmBaseline({
      serverUrl: options.serverUrl ?? testServerUrl,
      values: (function* () {
        for (let entry = 0; entry < index.size; entry++) yield index.valueAt(entry);
      })(),
      keywords,
      querySeconds: options.bruteForceSeconds ?? 300,
      log,
    });
    const { recall, compared } = recallOver(result.bestSimilarities);
    pgTrgm = { ...result, recall, recallKeywords: compared };
  }
  let stored: LevelResult["stored"];
  if (level <= (options.storedMaxLevel ?? 1_000_000)) {
    const result = await runStoredIndexBaseline({
      serverUrl: options.serverUrl ?? testServerUrl,
      index,
      keywords,
      querySeconds: options.bruteForceSeconds ?? 300,
      log,
    });
    const { recall, compared } = recallOver(result.bestSimilarities);
    stored = { ...result, recall, recallKeywords: compared };
    log(`level ${level}: stored index p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms`);
  }
  return {
    values: index.size,
    realValues,
    columns: columnCount,
    buildSeconds,
    valuesPerSecond: index.size / buildSeconds,
    indexMegabytes: megabytes(index.byteSize),
    rssMegabytes: megabytes(peakRss),
    heapMegabytes,
    keywords: keywords.length,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    bruteForceKeywords: bruteBest.length,
    recall: recallOver(found).recall,
    bruteForceP50: percentile(bruteLatencies, 50),
    pgTrgm,
    stored,
  };
}
