/** One turn's measurements in the browser (milliseconds). */
export interface TurnSample {
  /** The turn the question became (1 = the first of the thread). */
  readonly turn: number;
  /** Each key typed into the question box: from the key event to the next paint after it. */
  readonly keyMilliseconds: readonly number[];
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

/** One summary per turn, in turn order. */
export function summariseTurns(samples: readonly TurnSample[]): TurnSummary[] {
  const turns = [...new Set(samples.map((sample) => sample.turn))].sort((left, right) => left - right);
  return turns.map((turn) => {
    const ofTurn = samples.filter((sample) => sample.turn === turn);
    const keys = ofTurn.flatMap((sample) => sample.keyMilliseconds);
    return {
      turn,
      rounds: ofTurn.length,
      keyMedian: median(keys),
      keyWorst: Math.max(...keys),
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
    "| turn | rounds | key, median | key, worst | submit-to-rows, median | server (/api/chat), median | page overhead, median |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    ...summaries.map(
      (summary) =>
        `| ${summary.turn} | ${summary.rounds} | ${ms(summary.keyMedian)} | ${ms(summary.keyWorst)} | ${ms(summary.submitToRowsMedian)} | ${ms(summary.serverMedian)} | ${ms(summary.pageOverheadMedian)} |`,
    ),
  ];
  return lines.join("\n");
}
