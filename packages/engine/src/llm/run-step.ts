import {
  APICallError,
  generateText,
  type LanguageModel,
  NoObjectGeneratedError,
  NoOutputGeneratedError,
  Output,
} from "ai";
import type { z } from "zod";
import type { LlmCallRecord } from "../contract/events";
import { CancelledError } from "../errors/cancelled-error";
import { ModelCallError, ModelOutputError } from "../errors/model-errors";
import { NlqError } from "../errors/nlq-error";
import { scriptedProvider } from "../models/scripted-model";
import type { StepName } from "../steps/step-registry";
import { modelCallTelemetry } from "../telemetry/model-call-telemetry";
import { type TelemetrySettings, telemetryOff } from "../telemetry/pipeline-tracer";
import type { LlmBudget } from "./llm-budget";
import { recoverJsonOutput } from "./recover-json";

export interface RunStepOptions<OUTPUT> {
  /** Pipeline step name, e.g. `generate-candidate`; also tells a scripted model what to replay. */
  readonly step: StepName;
  readonly model: LanguageModel;
  /** `provider:model` as configured, for accounting. */
  readonly modelId: string;
  /** True for scripted replays. Default: whether the model's provider is `scripted`. */
  readonly scripted?: boolean;
  /** The zod schema the model's JSON output must satisfy. */
  readonly schema: z.ZodType<OUTPUT>;
  readonly system?: string;
  readonly prompt: string;
  /** Sampling temperature (default 0). */
  readonly temperature?: number;
  /** Which sample of the step this call is (default 0), passed to scripted models as `providerOptions.nlq.sample`. */
  readonly sample?: number;
  readonly abortSignal?: AbortSignal;
  /** The user's question, passed to scripted models as `providerOptions.nlq.question`. */
  readonly question: string;
  /** Call and deadline budget shared by the whole question; optional. */
  readonly budget?: LlmBudget;
  /**
   * Receives the accounting record of every call that reached the model: after a successful one, and before the error
   * of one that failed (`record.failure` says how; its tokens are the provider's where it reported them, else 0).
   */
  readonly onCall?: (record: LlmCallRecord) => void;
  /** Provider retries on transient errors (default 2; scripted models 0). */
  readonly maxRetries?: number;
  /** Whether the call joins the question's trace (the AI SDK's `experimental_telemetry`). Default: off. */
  readonly telemetry?: TelemetrySettings;
}

export interface StepResult<OUTPUT> {
  readonly output: OUTPUT;
  readonly call: LlmCallRecord;
}

function isScripted(model: LanguageModel): boolean {
  return typeof model === "object" && model.provider === scriptedProvider;
}

/**
 * Whether the provider refused the request as sent: an HTTP 4xx that retrying cannot fix (not 408, 409 or 429), e.g.
 * OpenAI's 400 `invalid_json_schema`. Looks through the AI SDK's retry wrapper to the last attempt's error.
 */
function isRefusal(error: unknown): boolean {
  const last = (error as { lastError?: unknown }).lastError ?? error;
  if (!APICallError.isInstance(last) || last.statusCode === undefined) return false;
  return last.statusCode >= 400 && last.statusCode < 500 && ![408, 409, 429].includes(last.statusCode);
}

function findNlqError(error: unknown): NlqError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    if (NlqError.isInstance(current)) return current;
    const nested = (current as { lastError?: unknown }).lastError ?? current.cause;
    current = nested;
  }
  return undefined;
}

/**
 * Runs one pipeline step on a language model with a structured (zod) output, via `generateText` + `Output.object`.
 * Throws `ModelOutputError` when the output does not match, `ModelCallError` on call failures and budget exhaustion,
 * `CancelledError` when aborted or past the deadline.
 */
export async function runStep<OUTPUT>(options: RunStepOptions<OUTPUT>): Promise<StepResult<OUTPUT>> {
  const scripted = options.scripted ?? isScripted(options.model);
  if (options.abortSignal?.aborted) throw new CancelledError();
  options.budget?.reserve(options.step);
  const signals: AbortSignal[] = [];
  if (options.abortSignal) signals.push(options.abortSignal);
  if (options.budget) signals.push(AbortSignal.timeout(Math.max(1, options.budget.remainingMilliseconds())));
  const abortSignal = signals.length > 0 ? AbortSignal.any(signals) : undefined;
  const started = performance.now();
  type Usage = { inputTokens?: number; outputTokens?: number } | undefined;
  const record = (usage: Usage, failure?: LlmCallRecord["failure"]): LlmCallRecord => {
    const call: LlmCallRecord = {
      step: options.step,
      model: options.modelId,
      scripted,
      ...(failure === undefined ? {} : { failure }),
      inputTokens: usage?.inputTokens ?? 0,
      outputTokens: usage?.outputTokens ?? 0,
      latencyMilliseconds: Math.round(performance.now() - started),
    };
    options.budget?.recordTokens(call.inputTokens + call.outputTokens);
    options.onCall?.(call);
    return call;
  };
  const finish = (output: OUTPUT, usage: Usage): StepResult<OUTPUT> => ({ output, call: record(usage) });
  /** Records a call that failed and returns `error`, for the caller to throw. */
  const failed = (error: Error, failure: NonNullable<LlmCallRecord["failure"]>, usage?: Usage): Error => {
    record(usage, failure);
    return error;
  };
  try {
    const result = await generateText({
      model: options.model,
      system: options.system,
      prompt: options.prompt,
      temperature: options.temperature ?? 0,
      abortSignal,
      maxRetries: options.maxRetries ?? (scripted ? 0 : 2),
      output: Output.object({ schema: options.schema }),
      providerOptions: { nlq: { step: options.step, question: options.question, sample: options.sample ?? 0 } },
      experimental_telemetry: modelCallTelemetry(options.telemetry ?? telemetryOff, {
        step: options.step,
        sample: options.sample ?? 0,
        modelId: options.modelId,
      }),
    });
    return finish(result.output as OUTPUT, result.usage);
  } catch (error) {
    if (options.abortSignal?.aborted) throw failed(new CancelledError(undefined, { cause: error }), "cancelled");
    if (abortSignal?.aborted) {
      throw failed(
        new CancelledError(`canceling statement due to the question's deadline (step "${options.step}")`, {
          cause: error,
        }),
        "cancelled",
      );
    }
    if (NoObjectGeneratedError.isInstance(error) || NoOutputGeneratedError.isInstance(error)) {
      const text = (error as { text?: string }).text ?? "";
      const usage = (error as { usage?: Usage }).usage;
      const recovered = recoverJsonOutput(text, options.schema);
      if (recovered !== undefined) return finish(recovered, usage);
      throw failed(
        new ModelOutputError(`model output for step "${options.step}" does not match its schema: ${error.message}`, {
          step: options.step,
          output: text,
          cause: error,
        }),
        "unreadable-output",
        usage,
      );
    }
    throw failed(
      findNlqError(error) ??
        new ModelCallError(`language-model call for step "${options.step}" failed: ${(error as Error).message}`, {
          step: options.step,
          cause: error,
        }),
      isRefusal(error) ? "refused" : "call-failed",
    );
  }
}
