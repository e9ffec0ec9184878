/** One turn's measurements in the browser (milliseconds). */
export interface TurnSample {
  /** The turn the question became (1 = the first of the thread). */
  readonly turn: number;
  /** Each key typed into the question box: from the key event to the next paint after it. */
  readonly keyMilliseconds: readonly number[];
  /**
   * Each key's work on the main thread: from the key event to its `input` event handled (React's render and commit
   * included) and a forced style and layout done; paint and the wait for the next frame aside.
   */
  readonly keyWorkMilliseconds: readonly number[];
  /** From the Enter that submitted the question to the next paint with its rows on the page. */
  readonly submitToRowsMilliseconds: number;
  /** The `/api/chat` request as the browser timed it: request start to the end of the streamed response. */
  readonly serverMilliseconds: number;
}

/** The medians of one turn over the rounds. */
export interface TurnSummary {
  readonly turn: number;
  readonly rounds: number;
  /** Median over every key of every round. */
  readonly keyMedian: number;
  /** Slowest key of every round. */
  readonly keyWorst: number;
  /** Median key work over every key of every round. */
  readonly keyWorkMedian: number;
  /** The 95th percentile of key work (nearest rank). */
  readonly keyWorkP95: number;
  readonly submitToRowsMedian: number;
  readonly serverMedian: number;
  /** Median of (submit-to-rows − server) per round: what the page adds to the server's time. */
  readonly pageOverheadMedian: number;
}

/** The median of `values` (the mean of the middle two for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The `fraction` quantile of `values` by nearest rank; NaN for none. */
export function quantile(values: readonly number[], fraction: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))]!;
}

/** One summary per turn, in turn order. */
export function summariseTurns(samples: readonly TurnSample[]): TurnSummary[] {
  const turns = [...new Set(samples.map((sample) => sample.turn))].sort((left, right) => left - right);
  return turns.map((turn) => {
    const ofTurn = samples.filter((sample) => sample.turn === turn);
    const keys = ofTurn.flatMap((sample) => sample.keyMilliseconds);
    const work = ofTurn.flatMap((sample) => sample.keyWorkMilliseconds);
    return {
      turn,
      rounds: ofTurn.length,
      keyMedian: median(keys),
      keyWorst: Math.max(...keys),
      keyWorkMedian: median(work),
      keyWorkP95: quantile(work, 0.95),
      submitToRowsMedian: median(ofTurn.map((sample) => sample.submitToRowsMilliseconds)),
      serverMedian: median(ofTurn.map((sample) => sample.serverMilliseconds)),
      pageOverheadMedian: median(ofTurn.map((sample) => sample.submitToRowsMilliseconds - sample.serverMilliseconds)),
    };
  });
}

/** A Markdown table of the summaries (milliseconds, one decimal). */
export function turnTable(summaries: readonly TurnSummary[]): string {
  const ms = (value: number) => value.toFixed(1);
  const lines = [
    "| turn | rounds | key work, median | key work, p95 | key to paint, median | key to paint, worst | submit-to-rows, median | server (/api/chat), median | page overhead, median |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...summaries.map(
      (summary) =>
        `| ${summary.turn} | ${summary.rounds} | ${ms(summary.keyWorkMedian)} | ${ms(summary.keyWorkP95)} | ${ms(summary.keyMedian)} | ${ms(summary.keyWorst)} | ${ms(summary.submitToRowsMedian)} | ${ms(summary.serverMedian)} | ${ms(summary.pageOverheadMedian)} |`,
    ),
  ];
  return lines.join("\n");
}
