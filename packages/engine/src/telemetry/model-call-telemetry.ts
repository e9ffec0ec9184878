import type { TelemetrySettings as AiTelemetrySettings } from "ai";
import type { TelemetrySettings } from "./pipeline-tracer";

/**
 * The AI SDK's `experimental_telemetry` for one model call of a pipeline step: enabled exactly when the question is
 * traced (so the SDK's `ai.generateText` / `gen_ai` spans join the question's trace, children of its root span), with
 * `functionId` `nlq.<step>` and the step, sample and configured model as metadata. Prompts and outputs are recorded
 * only with `NLQ_TRACE_CONTENT=on`.
 */
export function modelCallTelemetry(
  telemetry: TelemetrySettings,
  call: { readonly step: string; readonly sample: number; readonly modelId: string },
): AiTelemetrySettings {
  return {
    isEnabled: telemetry.enabled,
    functionId: `nlq.${call.step}`,
    metadata: { "nlq.step": call.step, "nlq.sample": call.sample, "nlq.model": call.modelId },
    recordInputs: telemetry.recordContent,
    recordOutputs: telemetry.recordContent,
  };
}
