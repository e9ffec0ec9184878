import { type PipelineEvent, unhandledEvent } from "../contract/events";
import { pipelineSteps } from "../steps/step-registry";
import { listContextHits } from "./list-context-hits";
import type { ProgressStep } from "./progress-step";

/**
 * What a pipeline event says about the question's progress, the one wording of `nlq ask`'s progress lines, the
 * proxy's progress NOTICEs and the web app's steps; undefined for the question's start (every surface shows the
 * question already). A stage's start event shows its step running, its end event shows it done (or failed) under the
 * same `step` id. Pure; the switch is exhaustive, so a new event type does not compile until it is described here.
 */
export function describeProgressStep(event: PipelineEvent): ProgressStep | undefined {
  switch (event.type) {
    case "pipeline-start":
      return undefined;
    case "catalog-start":
      return running("catalog", "Reading the schema", "Read the schema", { worthALine: false });
    case "catalog-end":
      return done("catalog", "Read the schema", {
        detail: `${tablesAndColumns(event)} (${event.source === "index" ? "from the catalog index" : "introspected"})`,
      });
    case "keywords-start":
      return running("keywords", pipelineSteps["extract-keywords"].label, "Extracted keywords", { worthALine: false });
    case "keywords-end":
      return done("keywords", "Extracted keywords", {
        detail: `${event.keywords.join(", ") || "none"}${event.source === "heuristic" ? ` (heuristic, no model${event.fallbackReason ? `: ${event.fallbackReason}` : ""})` : ""}`,
      });
    case "values-start":
      return running("values", "Matching database values", "Matched database values", {
        detail: plural(event.keywords, "keyword"),
        worthALine: false,
      });
    case "values-end":
      return done("values", "Matched database values", {
        detail: event.values.length > 0 ? listValuesByKeyword(event.values) : "no matching values",
      });
    case "context-start":
      return running("context", "Searching table and column descriptions", "Searched table and column descriptions", {
        worthALine: false,
      });
    case "context-end":
      return done("context", "Searched table and column descriptions", {
        detail: event.hits.length > 0 ? listContextHits(event.hits) : "no matching descriptions",
      });
    case "crush-start":
      return running("crush", pipelineSteps["hallucinate-schema"].label, "Chose a schema subset", {
        detail: `at most ${plural(event.budget, "column")}`,
      });
    case "crush-end":
      return done("crush", "Chose a schema subset", {
        detail: `${plural(event.columns, "column")}${event.hallucinated.length > 0 ? ` for ${event.hallucinated.join(", ")}` : ""}${event.fallbackReason ? ` (no hallucinated schema: ${event.fallbackReason})` : ""}`,
      });
    case "schema-start":
      return running("schema", "Selecting the relevant schema", "Selected the relevant schema", {
        detail: `from ${tablesAndColumns(event)}`,
      });
    case "schema-end":
      return done("schema", "Selected the relevant schema", { detail: tablesAndColumns(event) });
    case "readings-end":
      return done("readings", "Looked for other readings of the question", {
        detail: describeReadings(event),
        worthALine: event.readings.length > 0 || event.followed.length > 0,
      });
    case "candidate-start":
      return running(
        `candidate-${event.candidate}`,
        `Writing SQL candidate ${event.candidate + 1}`,
        `SQL candidate ${event.candidate + 1}`,
        { detail: event.sample > 0 ? `${event.generator}, sample ${event.sample + 1}` : event.generator },
      );
    case "candidate-end":
      return event.ok
        ? done(`candidate-${event.candidate}`, `SQL candidate ${event.candidate + 1}`, {
            detail: event.rows === undefined ? "ran" : `ran, ${plural(event.rows, "row")}`,
          })
        : failed(
            `candidate-${event.candidate}`,
            `SQL candidate ${event.candidate + 1}`,
            event.error ?? "unknown error",
          );
    case "fix-start":
      return running(
        `fix-${event.candidate}-${event.attempt}`,
        `Fixing candidate ${event.candidate + 1} (attempt ${event.attempt})`,
        `Fix of candidate ${event.candidate + 1} (attempt ${event.attempt})`,
        { detail: event.reason },
      );
    case "fix-end":
      // How the revised SQL ran is said at its candidate's end.
      return done(
        `fix-${event.candidate}-${event.attempt}`,
        `Revised candidate ${event.candidate + 1} (attempt ${event.attempt})`,
        { worthALine: false },
      );
    case "selection-start":
      return running("selection", "Choosing the answer", "Chose the answer", {
        detail: `${plural(event.clusters, "distinct result")} among ${plural(event.candidates, "candidate")}`,
        // Worth a line only when there is a choice to make.
        worthALine: event.clusters > 1,
      });
    case "selection-end":
      return event.confidence === undefined
        ? done("selection", "Chose the answer", { detail: plural(event.candidates, "candidate"), worthALine: false })
        : done("selection", "Chose the answer", {
            detail: `confidence ${Math.round(event.confidence * 100)}% (${event.basis || selectorPhrase(event.selector, event.clusters)})`,
          });
    case "summary-start":
      return running("summary", pipelineSteps["summarize-answer"].label, "Summarized the answer", {
        worthALine: false,
      });
    case "summary-end":
      // The sentence itself goes with the answer; only its absence, and why, is progress worth a line.
      return done("summary", event.sentence === undefined ? "No plain-language answer" : "Summarized the answer", {
        ...(event.omittedReason === undefined ? {} : { detail: event.omittedReason }),
        worthALine: event.omittedReason !== undefined,
      });
    case "llm-call-start":
      return running("model-call", `Model call ${event.step}`, `Model call ${event.step}`, {
        detail: `${pipelineSteps[event.step].label}…`,
      });
    case "llm-call-end": {
      const call = event.call;
      const detail = `${call.model}${call.scripted ? " (scripted replay)" : ""}${call.failure === undefined ? "" : ` (${call.failure})`}, ${call.latencyMilliseconds} ms`;
      return call.failure === undefined
        ? done("model-call", `Model call ${call.step}`, { detail })
        : failed("model-call", `Model call ${call.step}`, detail);
    }
    case "pipeline-end":
      // The answer itself says its rows; the page closes the question with its time.
      return done("result", "Answered", {
        detail: `${plural(event.rows, "row")}, ${duration(event.elapsedMilliseconds)} from question to answer`,
        worthALine: false,
      });
    default:
      return unhandledEvent(event);
  }
}

function describeReadings(event: Extract<PipelineEvent, { type: "readings-end" }>): string {
  const parts: string[] = [];
  if (event.readings.length > 0) {
    parts.push(
      `«${event.readings[0]!.phrase}» may mean ${event.readings.map((reading) => reading.meaning).join(" or ")} (candidates for each)`,
    );
  }
  for (const followed of event.followed)
    parts.push(`«${followed.phrase}» means ${followed.meaning} (a confirmed reading)`);
  return parts.length > 0 ? parts.join("; ") : "one reading";
}

interface StepWords {
  readonly detail?: string;
  /** Default true. */
  readonly worthALine?: boolean;
}

function running(step: string, label: string, endLabel: string, words: StepWords = {}): ProgressStep {
  return { step, label, status: "running", ...detailOf(words), endLabel, worthALine: words.worthALine ?? true };
}

function done(step: string, label: string, words: StepWords = {}): ProgressStep {
  return { step, label, status: "done", ...detailOf(words), worthALine: words.worthALine ?? true };
}

function failed(step: string, label: string, detail: string): ProgressStep {
  return { step, label, status: "failed", detail, worthALine: true };
}

function detailOf(words: StepWords): { detail?: string } {
  return words.detail === undefined ? {} : { detail: words.detail };
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

function tablesAndColumns(counts: { readonly tables: number; readonly columns: number }): string {
  return `${plural(counts.tables, "table")}, ${plural(counts.columns, "column")}`;
}

/** `Rotterdm → world_1.city.name = 'Rotterdam', world_1.city.district = 'Zuid-Holland'; Pari → …`. */
function listValuesByKeyword(
  values: ReadonlyArray<{ keyword: string; table: string; column: string; value: string }>,
): string {
  const byKeyword = new Map<string, string[]>();
  for (const match of values) {
    byKeyword.set(match.keyword, [
      ...(byKeyword.get(match.keyword) ?? []),
      `${match.table}.${match.column} = '${match.value}'`,
    ]);
  }
  return [...byKeyword].map(([keyword, matches]) => `${keyword} → ${matches.join(", ")}`).join("; ");
}

/** How the answer was chosen, in words, when the event gives no basis (`single`, `pairwise`, … are selector names). */
function selectorPhrase(selector: string, clusters: number): string {
  switch (selector) {
    case "single":
      return clusters <= 1 ? "every candidate returned the same rows" : "one result";
    case "self-consistency":
      return "the result most candidates returned";
    case "pairwise":
      return "the model compared the differing results pair by pair";
    case "random":
      return "picked at random among the differing results";
    default:
      return `chosen by the ${selector.replace(/[-_]/g, " ")} selector`;
  }
}

/** A duration for people: `850 ms`, `2.2 s`. */
function duration(milliseconds: number): string {
  return milliseconds < 1_000 ? `${Math.round(milliseconds)} ms` : `${(milliseconds / 1_000).toFixed(1)} s`;
}
