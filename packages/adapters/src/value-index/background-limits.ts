import type { QueryExecutor } from "@nlq/engine";

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
