import { describeProgressStep, type PipelineEvent, type ProgressStep } from "@nlq/engine";
import type { StepData, StepPart } from "./chat-message";
import { withoutServerPaths, withoutStepNames } from "./error-data";

/**
 * Turns the pipeline's progress events into `data-step` parts for the page, in the engine's words
 * (`describeProgressStep`, shared with `nlq ask` and the proxy's NOTICEs). Each step has a stable id, so a later part
 * (done, failed) replaces the earlier one (running) in the browser.
 */
export interface StepTracker {
  /** Parts to write for one event (none for events the page does not show, such as model calls). */
  next(event: PipelineEvent): StepPart[];
  /** Closes every step still running: `done` after an answer, `failed` after an error. */
  finish(outcome: "done" | "failed"): StepPart[];
  /** Language-model calls seen so far. */
  readonly languageModelCalls: number;
}

const maximumDetailLength = 160;

export function createStepTracker(): StepTracker {
  /** Steps still running, with the label each takes once it ends. */
  const running = new Map<string, { data: StepData; endLabel: string }>();
  let languageModelCalls = 0;

  function part(id: string, data: StepData, endLabel = data.label): StepPart {
    if (data.status === "running") running.set(id, { data, endLabel });
    else running.delete(id);
    return { type: "data-step", id, data };
  }

  return {
    get languageModelCalls() {
      return languageModelCalls;
    },
    next(event) {
      if (event.type === "llm-call-end") languageModelCalls += 1;
      const step = describeProgressStep(event);
      // Model calls happen inside the steps; the page counts them in the answer instead of listing them.
      if (step === undefined || step.step === "model-call") return [];
      return [part(step.step, pageData(step), step.endLabel)];
    },
    finish(outcome) {
      return [...running.entries()].map(([id, step]) =>
        part(id, { ...step.data, label: step.endLabel, status: outcome }),
      );
    },
  };
}

/** A step as the page shows it: details shortened, without server paths or internal step names. */
function pageData(step: ProgressStep): StepData {
  return {
    label: step.label,
    status: step.status,
    ...(step.detail === undefined ? {} : { detail: shorten(pageText(step.detail)) }),
  };
}

/** Text as the page shows it: no server paths, no internal step names, the scripted demo's gap in words. */
function pageText(text: string): string {
  if (/^scripted model has no response/.test(text)) return "no recorded answer for this question (scripted demo)";
  return withoutStepNames(withoutServerPaths(text));
}

function shorten(text: string): string {
  return text.length > maximumDetailLength ? `${text.slice(0, maximumDetailLength - 1)}…` : text;
}
