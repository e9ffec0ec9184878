import { type PipelineEvent, unhandledEvent } from "@nlq/engine";
import { listContextHits } from "../progress/list-context-hits";

/**
 * One short progress line for a pipeline event, sent as a NOTICE while a question is being answered
 * (when `progressNotices` is on), or undefined for events not worth a line. Every NOTICE is a message the client
 * prints, so start events get a line only when they say what the end will not (the CRUSH budget, the schema a
 * selector starts from, how many candidates are compared); model calls speak once, at their end. Pure; the switch is
 * exhaustive, so a new event type does not compile until it is handled here.
 */
export function describeProgress(event: PipelineEvent): string | undefined {
  switch (event.type) {
    case "pipeline-start":
    case "catalog-start":
    case "keywords-start":
    case "values-start":
    case "context-start":
    case "fix-end":
    case "llm-call-start":
    case "pipeline-end":
      return undefined;
    case "catalog-end":
      return `nlq: schema read (${event.tables} tables, ${event.columns} columns, from ${event.source})`;
    case "keywords-end":
      return `nlq: keywords ${event.keywords.join(", ")}${event.source === "heuristic" ? " (heuristic, no model)" : ""}`;
    case "values-end":
      return event.values.length > 0
        ? `nlq: values ${event.values.map((match) => `${match.keyword} → ${match.table}.${match.column} = '${match.value}'`).join("; ")}`
        : "nlq: no matching values";
    case "context-end":
      return event.hits.length > 0 ? `nlq: context ${listContextHits(event.hits)}` : "nlq: no matching descriptions";
    case "crush-start":
      return `nlq: hallucinating a schema to keep at most ${event.budget} columns`;
    case "crush-end":
      return `nlq: kept ${event.columns} columns for the hallucinated ${event.hallucinated.join(", ") || "nothing"}`;
    case "schema-start":
      return `nlq: selecting the schema from ${event.tables} tables, ${event.columns} columns`;
    case "schema-end":
      return `nlq: schema narrowed to ${event.tables} tables, ${event.columns} columns`;
    case "candidate-start":
      return `nlq: candidate ${event.candidate + 1} (${event.generator}${event.sample > 0 ? `, sample ${event.sample + 1}` : ""})`;
    case "candidate-end":
      return event.ok
        ? `nlq: candidate ${event.candidate + 1} ran (${event.rows ?? 0} rows)`
        : `nlq: candidate ${event.candidate + 1} failed: ${event.error ?? "unknown error"}`;
    case "fix-start":
      return `nlq: revising candidate ${event.candidate + 1} (attempt ${event.attempt}): ${event.reason}`;
    case "selection-start":
      return event.clusters > 1
        ? `nlq: choosing among ${event.clusters} distinct results of ${event.candidates} candidates (${event.selector})`
        : undefined;
    case "selection-end":
      return event.confidence === undefined
        ? undefined
        : `nlq: chose by ${event.selector}, confidence ${event.confidence.toFixed(2)} (${event.basis})`;
    case "summary-start":
      return undefined;
    case "summary-end":
      // The sentence itself goes with the answer's NOTICEs; only its absence is progress worth a line.
      return event.omittedReason === undefined ? undefined : `nlq: no answer sentence (${event.omittedReason})`;
    case "llm-call-end":
      return `nlq: ${event.call.step} by ${event.call.model}${event.call.scripted ? " (scripted replay)" : ""} ${event.call.failure === undefined ? "in" : `failed (${event.call.failure}) after`} ${event.call.latencyMilliseconds} ms`;
    default:
      return unhandledEvent(event);
  }
}
