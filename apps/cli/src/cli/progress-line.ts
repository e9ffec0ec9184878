import { describeProgressStep, type PipelineEvent, progressStepLine } from "@nlq/engine";

/**
 * The `nlq ask` progress line of an event (the command prefixes it with `… ` on stderr), or undefined for events not
 * worth a line. The words are the engine's `describeProgressStep`, shared with the proxy's NOTICEs and the web app;
 * a model call's line also counts its tokens (input+output). Pure.
 */
export function describeEvent(event: PipelineEvent): string | undefined {
  const step = describeProgressStep(event);
  if (step === undefined || !step.worthALine) return undefined;
  const line = progressStepLine(step);
  return event.type === "llm-call-end" ? `${line}, ${event.call.inputTokens}+${event.call.outputTokens} tokens` : line;
}
