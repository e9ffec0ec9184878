"use client";

import type { StepData } from "../lib/chat-message";

export interface StepListProps {
  readonly steps: ReadonlyArray<StepData & { readonly id: string }>;
  /** True once the answer or error arrived (the summary then counts the steps). */
  readonly finished: boolean;
  /** The user stopped the question: nothing runs any more, whatever the last parts said. */
  readonly stopped?: boolean;
}

const statusText = { running: "running", done: "done", failed: "failed", stopped: "stopped" } as const;

/** The pipeline's progress, updated live; each step shows running, done or failed. */
export function StepList({ steps, finished, stopped = false }: StepListProps) {
  const failed = steps.filter((step) => step.status === "failed").length;
  return (
    <details className="steps" open>
      <summary>
        {finished ? `${steps.length} steps` : stopped ? `Stopped after ${steps.length} steps` : "Working…"}
        {failed > 0 ? ` · ${failed} failed` : ""}
      </summary>
      <ol aria-label="Pipeline steps" aria-live="polite">
        {steps.map((step) => {
          const status = stopped && step.status === "running" ? "stopped" : step.status;
          return (
            <li key={step.id} className={`step step-${status}`} data-status={status}>
              <span className="step-icon" aria-hidden="true" />
              <span className="visually-hidden">{statusText[status]}: </span>
              <span className="step-label">{step.label}</span>
              {step.detail ? <span className="step-detail">{step.detail}</span> : null}
            </li>
          );
        })}
      </ol>
    </details>
  );
}
