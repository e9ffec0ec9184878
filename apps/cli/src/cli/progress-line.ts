import { type PipelineEvent, pipelineSteps, unhandledEvent } from "@nlq/engine";
import { listContextHits } from "@nlq/proxy";

/**
 * The `nlq ask` progress lines of an event (several separated by newlines; the command prefixes each with `… ` on
 * stderr), or undefined for events not worth a line. Start events get a line when something slow begins (a model
 * call, CRUSH, schema selection, a choice among several candidates); the other stages speak at their end. Pure; the
 * switch is exhaustive, so a new event type does not compile until it is handled here.
 */
export function describeEvent(event: PipelineEvent): string | undefined {
  switch (event.type) {
    case "pipeline-start":
    case "catalog-start":
    case "keywords-start":
    case "values-start":
    case "context-start":
    case "fix-end":
    case "pipeline-end":
      return undefined;
    case "catalog-end":
      return `catalog: ${event.tables} tables, ${event.columns} columns (${event.source === "index" ? "from the catalog index" : "live introspection"})`;
    case "keywords-end":
      return `keywords: ${event.keywords.join(", ") || "none"}${event.source === "heuristic" ? ` (heuristic, no model${event.fallbackReason ? `: ${event.fallbackReason}` : ""})` : ""}`;
    case "values-end": {
      if (event.values.length === 0) return "values: no matching database values";
      // One line per keyword: `values: Rotterdm → world_1.city.name = 'Rotterdam', …`.
      const byKeyword = new Map<string, Array<(typeof event.values)[number]>>();
      for (const match of event.values) byKeyword.set(match.keyword, [...(byKeyword.get(match.keyword) ?? []), match]);
      return [...byKeyword]
        .map(
          ([keyword, matches]) =>
            `values: ${keyword} → ${matches.map((match) => `${match.table}.${match.column} = '${match.value}'`).join(", ")}`,
        )
        .join("\n");
    }
    case "context-end":
      return event.hits.length > 0 ? `context: ${listContextHits(event.hits)}` : "context: no matching descriptions";
    case "crush-start":
      return `crush: hallucinating a schema to keep at most ${event.budget} columns`;
    case "crush-end":
      return `crush: ${event.columns} columns kept (hallucinated: ${event.hallucinated.join(", ") || "nothing"})`;
    case "schema-start":
      return `schema: selecting from ${event.tables} tables, ${event.columns} columns`;
    case "schema-end":
      return `schema: ${event.tables} tables, ${event.columns} columns selected`;
    case "candidate-start":
      return `candidate ${event.candidate + 1}: generating (${event.generator}${event.sample > 0 ? `, sample ${event.sample + 1}` : ""})`;
    case "fix-start":
      return `candidate ${event.candidate + 1}: fixing, attempt ${event.attempt} (${event.reason})`;
    case "candidate-end":
      return event.ok
        ? `candidate ${event.candidate + 1}: ${event.rows ?? 0} rows`
        : `candidate ${event.candidate + 1}: failed (${event.error ?? "error"})`;
    case "selection-start":
      return event.clusters > 1
        ? `selection: ${event.clusters} distinct results among ${event.candidates} candidates, choosing by ${event.selector}`
        : undefined;
    case "selection-end":
      return event.confidence === undefined
        ? undefined
        : `selection: chosen by ${event.selector}, confidence ${event.confidence.toFixed(2)} (${event.basis})`;
    case "summary-start":
      return undefined;
    case "summary-end":
      return event.omittedReason === undefined ? undefined : `answer sentence: none (${event.omittedReason})`;
    case "llm-call-start":
      return `model call ${event.step}: ${pipelineSteps[event.step].label}…`;
    case "llm-call-end":
      return `model call ${event.call.step}: ${event.call.model}${event.call.scripted ? " (scripted)" : ""}${event.call.failure === undefined ? "" : `, failed (${event.call.failure})`}, ${event.call.inputTokens}+${event.call.outputTokens} tokens, ${event.call.latencyMilliseconds} ms`;
    default:
      return unhandledEvent(event);
  }
}
