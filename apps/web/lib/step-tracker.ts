import { type PipelineEvent, pipelineSteps, unhandledEvent } from "@nlq/engine";
import type { StepData, StepPart } from "./chat-message";
import { withoutServerPaths, withoutStepNames } from "./error-data";

/**
 * Candidates are numbered from 0 in events and from 1 on the page.
 *
 * Turns the pipeline's progress events into `data-step` parts for the page. Each step has a stable id,
 * so a later part (done, failed) replaces the earlier one (running) in the browser.
 */
export interface StepTracker {
  /** Parts to write for one event (none for events the page does not show, such as `llm-call-end`). */
  next(event: PipelineEvent): StepPart[];
  /** Closes every step still running: `done` after an answer, `failed` after an error. */
  finish(outcome: "done" | "failed"): StepPart[];
  /** Language-model calls seen so far. */
  readonly languageModelCalls: number;
}

const maximumDetailLength = 160;

export function createStepTracker(): StepTracker {
  /** Steps still running, with the label each takes once it ends. */
  const running = new Map<string, { data: StepData; finishedLabel: string }>();
  let languageModelCalls = 0;

  function part(id: string, data: StepData, finishedLabel = data.label): StepPart {
    if (data.status === "running") running.set(id, { data, finishedLabel });
    else running.delete(id);
    return { type: "data-step", id, data };
  }

  return {
    get languageModelCalls() {
      return languageModelCalls;
    },
    next(event) {
      return stepsOf(event);
    },
    finish(outcome) {
      return [...running.entries()].map(([id, step]) =>
        part(id, { ...step.data, label: step.finishedLabel, status: outcome }),
      );
    },
  };

  /**
   * A stage's start event shows its step running, its end event shows it done (or failed) under the same id. The
   * switch is exhaustive, so a new event type does not compile until the page handles it.
   */
  function stepsOf(event: PipelineEvent): StepPart[] {
    switch (event.type) {
      case "pipeline-start":
        // The question itself is on the page already; its stages follow as steps.
        return [];
      case "catalog-start":
        return [part("catalog", { label: "Reading the schema", status: "running" }, "Read the schema")];
      case "catalog-end":
        return [
          part("catalog", {
            label: "Read the schema",
            status: "done",
            detail: `${plural(event.tables, "table")}, ${plural(event.columns, "column")} (${event.source === "index" ? "from the index" : "introspected"})`,
          }),
        ];
      case "keywords-start":
        return [
          part("keywords", { label: pipelineSteps["extract-keywords"].label, status: "running" }, "Extracted keywords"),
        ];
      case "keywords-end":
        return [
          part("keywords", {
            label: "Extracted keywords",
            status: "done",
            detail: `${event.keywords.length > 0 ? shorten(event.keywords.join(", ")) : "none"}${event.source === "heuristic" ? " (heuristic, no model)" : ""}`,
          }),
        ];
      case "values-start":
        return [
          part(
            "values",
            { label: "Matching database values", status: "running", detail: plural(event.keywords, "keyword") },
            "Matched database values",
          ),
        ];
      case "values-end":
        return [
          part("values", {
            label: "Matched database values",
            status: "done",
            detail:
              event.values.length > 0
                ? shorten(event.values.map((match) => `${match.table}.${match.column} = '${match.value}'`).join(", "))
                : "no matching values",
          }),
        ];
      case "context-start":
        return [
          part(
            "context",
            { label: "Searching table and column descriptions", status: "running" },
            "Searched table and column descriptions",
          ),
        ];
      case "context-end":
        return [
          part("context", {
            label: "Searched table and column descriptions",
            status: "done",
            detail:
              event.hits.length > 0
                ? shorten(event.hits.map((hit) => (hit.column ? `${hit.table}.${hit.column}` : hit.table)).join(", "))
                : "no matching descriptions",
          }),
        ];
      case "crush-start":
        return [
          part(
            "crush",
            {
              label: pipelineSteps["hallucinate-schema"].label,
              status: "running",
              detail: `at most ${plural(event.budget, "column")}`,
            },
            "Chose a schema subset",
          ),
        ];
      case "crush-end":
        return [
          part("crush", {
            label: "Chose a schema subset",
            status: "done",
            detail: shorten(
              `${plural(event.columns, "column")}${event.hallucinated.length > 0 ? ` for ${event.hallucinated.join(", ")}` : ""}`,
            ),
          }),
        ];
      case "schema-start":
        return [
          part(
            "schema",
            {
              label: "Selecting the relevant schema",
              status: "running",
              detail: `from ${plural(event.tables, "table")}, ${plural(event.columns, "column")}`,
            },
            "Selected the relevant schema",
          ),
        ];
      case "schema-end":
        return [
          part("schema", {
            label: "Selected the relevant schema",
            status: "done",
            detail: `${plural(event.tables, "table")}, ${plural(event.columns, "column")}`,
          }),
        ];
      case "candidate-start":
        return [
          part(
            `candidate-${event.candidate}`,
            {
              label: `Writing SQL candidate ${event.candidate + 1}`,
              status: "running",
              detail: event.sample > 0 ? `${event.generator}, sample ${event.sample + 1}` : event.generator,
            },
            `SQL candidate ${event.candidate + 1}`,
          ),
        ];
      case "candidate-end":
        return [
          part(`candidate-${event.candidate}`, {
            label: `SQL candidate ${event.candidate + 1}`,
            status: event.ok ? "done" : "failed",
            detail: event.ok
              ? event.rows === undefined
                ? "ran"
                : `ran, ${plural(event.rows, "row")}`
              : shorten(failureText(event.error ?? "failed")),
          }),
        ];
      case "fix-start":
        return [
          part(
            `fix-${event.candidate}-${event.attempt}`,
            {
              label: `Fixing candidate ${event.candidate + 1} (attempt ${event.attempt})`,
              status: "running",
              detail: shorten(failureText(event.reason)),
            },
            `Fix of candidate ${event.candidate + 1} (attempt ${event.attempt})`,
          ),
        ];
      case "fix-end":
        return [
          part(`fix-${event.candidate}-${event.attempt}`, {
            label: `Revised candidate ${event.candidate + 1} (attempt ${event.attempt})`,
            status: "done",
          }),
        ];
      case "selection-start":
        return [
          part(
            "selection",
            {
              label: "Choosing the answer",
              status: "running",
              detail: `${plural(event.clusters, "distinct result")} among ${plural(event.candidates, "candidate")}`,
            },
            "Chose the answer",
          ),
        ];
      case "selection-end":
        return [
          part("selection", {
            label: "Chose the answer",
            status: "done",
            detail:
              event.confidence === undefined
                ? plural(event.candidates, "candidate")
                : `confidence ${Math.round(event.confidence * 100)}%: ${event.basis || selectorPhrase(event.selector, event.clusters)}`,
          }),
        ];
      case "summary-start":
        return [
          part(
            "summary",
            { label: pipelineSteps["summarize-answer"].label, status: "running" },
            "Summarized the answer",
          ),
        ];
      case "summary-end":
        // The sentence itself is shown with the answer; the step only says when there is none, and why.
        return [
          part("summary", {
            label: event.sentence === undefined ? "No plain-language answer" : "Summarized the answer",
            status: "done",
            ...(event.omittedReason === undefined ? {} : { detail: shorten(event.omittedReason) }),
          }),
        ];
      case "llm-call-start":
        // Model calls happen inside the steps above; the page counts them in the answer instead of listing them.
        return [];
      case "llm-call-end":
        languageModelCalls += 1;
        return [];
      case "pipeline-end":
        // The last line: the whole question's time (the chosen query ran inside its candidate's step, above).
        return [
          part("result", {
            label: "Answered",
            status: "done",
            detail: `${plural(event.rows, "row")}, ${seconds(event.elapsedMilliseconds)} from question to answer`,
          }),
        ];
      default:
        return unhandledEvent(event) ?? [];
    }
  }
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** How the answer was chosen, in words (`single`, `pairwise`, … are the engine's selector names). */
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
function seconds(milliseconds: number): string {
  return milliseconds < 1_000 ? `${Math.round(milliseconds)} ms` : `${(milliseconds / 1_000).toFixed(1)} s`;
}

/** A failure as the page shows it: no server paths, no internal step names, the scripted demo's gap in words. */
function failureText(text: string): string {
  if (/^scripted model has no response/.test(text)) return "no recorded answer for this question (scripted demo)";
  return withoutStepNames(withoutServerPaths(text));
}

function shorten(text: string): string {
  return text.length > maximumDetailLength ? `${text.slice(0, maximumDetailLength - 1)}…` : text;
}
