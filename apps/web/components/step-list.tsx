"use client";

import type { StepData } from "../lib/chat-message";

export interface StepListProps {
  readonly steps: ReadonlyArray<StepData & { readonly id: string }>;
  /** True once the answer or error arrived (the summary then counts the steps). */
  readonly finished: boolean;
}

const statusText = { running: "running", done: "done", failed: "failed" } as const;

/** The pipeline's progress, updated live; each step shows running, done or failed. */
export function StepList({ steps, finished }: StepListProps) {
  const failed = steps.filter((step) => step.status === "failed").length;
  return (
    <details className="steps" open>
      <summary>
        {finished ? `${steps.length} steps` : "Working…"}
        {failed > 0 ? ` · ${failed} failed` : ""}
      </summary>
      <ol aria-label="Pipeline steps" aria-live="polite">
        {steps.map((step) => (
          <li key={step.id} className={`step step-${step.status}`} data-status={step.status}>
            <span className="step-icon" aria-hidden="true" />
            <span className="visually-hidden">{statusText[step.status]}: </span>
            <span className="step-label">{step.label}</span>
            {step.detail ? <span className="step-detail">{step.detail}</span> : null}
          </li>
        ))}
      </ol>
    </details>
  );
}
