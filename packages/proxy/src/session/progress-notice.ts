import { describeProgressStep, type PipelineEvent, progressStepLine } from "@nlq/engine";

/**
 * One progress line for a pipeline event, `nlq: Read the schema: 3 tables, 12 columns (introspected)`, sent as a
 * NOTICE while a question is being answered (when `progressNotices` is on), or undefined for events not worth a line.
 * The words are the engine's `describeProgressStep`, shared with `nlq ask` and the web app. Every NOTICE is a message
 * the client prints, so it speaks less: only steps worth a line, and a model call once, at its end.
 */
export function describeProgress(event: PipelineEvent): string | undefined {
  const step = describeProgressStep(event);
  if (step === undefined || !step.worthALine) return undefined;
  if (step.step === "model-call" && step.status === "running") return undefined;
  return `nlq: ${progressStepLine(step)}`;
}
