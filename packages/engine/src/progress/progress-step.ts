/** Where a step of a question stands. */
export type ProgressStatus = "running" | "done" | "failed";

/**
 * What one pipeline event says about the question's progress, in words every surface shares (`describeProgressStep`):
 * the web app shows it as a step of the answer, `nlq ask` and the proxy's NOTICEs as a line (`progressStepLine`).
 */
export interface ProgressStep {
  /**
   * The step the event belongs to, stable across its start and end (`catalog`, `keywords`, `values`, `context`,
   * `crush`, `schema`, `candidate-0`, `fix-0-1`, `selection`, `summary`, `model-call`, `result`), so a surface that
   * shows steps replaces the running one with the ended one. Candidates are numbered from 0 here, as in the events.
   */
  readonly step: string;
  /** `Reading the schema` while running, `Read the schema` once done; candidates numbered from 1. */
  readonly label: string;
  readonly status: ProgressStatus;
  /** What the step found or starts from (`3 tables, 12 columns (introspected)`); a failure's message. */
  readonly detail?: string;
  /** A running step's label once it ends: what a surface shows when it closes the step after an error. */
  readonly endLabel?: string;
  /**
   * Whether a surface that prints one line per event prints this one. False where the event only opens or closes a
   * step whose other end says everything (the catalog's start, a fix's end, a single candidate's selection), and where
   * the answer itself says it (its sentence, its row count).
   */
  readonly worthALine: boolean;
}

/**
 * A step as one line, `Read the schema: 3 tables, 12 columns (introspected)` or `SQL candidate 2 failed: <error>`:
 * the words of `nlq ask`'s progress lines and of the proxy's progress NOTICEs.
 */
export function progressStepLine(step: ProgressStep): string {
  const label = step.status === "failed" ? `${step.label} failed` : step.label;
  return step.detail === undefined ? label : `${label}: ${step.detail}`;
}
