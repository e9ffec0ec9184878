import type { SelectionSummary } from "../contract/answer";

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/**
 * How an answer was chosen, in one line every surface shows (the CLI, the proxy's NOTICE, the web app):
 * `confidence 67% (2 of 3 candidates returned this result); 3 candidates, 2 distinct results, chosen by
 * self-consistency` — the figure as a whole percent, as the web app and the proxy's progress NOTICE print it. Without
 * a confidence (one candidate written) it says only `1 candidate`.
 */
export function describeSelection(summary: SelectionSummary, confidence: number | undefined): string {
  const counts =
    summary.candidates === 1
      ? plural(1, "candidate")
      : `${plural(summary.candidates, "candidate")}${summary.executed < summary.candidates ? ` (${summary.executed} ran)` : ""}, ${plural(summary.clusters, "distinct result")}${summary.selector === "single" ? "" : `, chosen by ${summary.selector}`}`;
  return confidence === undefined
    ? counts
    : `confidence ${Math.round(confidence * 100)}% (${summary.basis}); ${counts}`;
}
