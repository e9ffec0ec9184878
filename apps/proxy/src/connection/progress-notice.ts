import type { PipelineEvent } from "@nlq/engine";

/**
 * One short progress line for a pipeline event, sent as a NOTICE while a question is being answered
 * (when `progressNotices` is on), or undefined for events not worth a line. Pure.
 */
export function describeProgress(event: PipelineEvent): string | undefined {
  switch (event.type) {
    case "catalog-end":
      return `nlq: schema read (${event.tables} tables, ${event.columns} columns, from ${event.source})`;
    case "keywords-end":
      return `nlq: keywords ${event.keywords.join(", ")}${event.source === "heuristic" ? " (heuristic, no model)" : ""}`;
    case "values-end":
      return event.values.length > 0
        ? `nlq: values ${event.values.map((match) => `${match.keyword} → ${match.table}.${match.column} = '${match.value}'`).join("; ")}`
        : "nlq: no matching values";
    case "schema-end":
      return `nlq: schema narrowed to ${event.tables} tables, ${event.columns} columns`;
    case "candidate-start":
      return `nlq: candidate ${event.candidate + 1} (${event.generator})`;
    case "candidate-end":
      return event.ok
        ? `nlq: candidate ${event.candidate + 1} ran (${event.rows ?? 0} rows)`
        : `nlq: candidate ${event.candidate + 1} failed: ${event.error ?? "unknown error"}`;
    case "fix-start":
      return `nlq: revising candidate ${event.candidate + 1} (attempt ${event.attempt}): ${event.reason}`;
    case "selection-end":
      return `nlq: chose among ${event.clusters} result clusters (confidence ${event.confidence.toFixed(2)})`;
    case "llm-call-end":
      return `nlq: ${event.call.step} by ${event.call.model}${event.call.scripted ? " (scripted replay)" : ""} in ${event.call.latencyMilliseconds} ms`;
    default:
      return undefined;
  }
}
