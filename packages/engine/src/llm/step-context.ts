import type { PromptQuestionContext } from "@nlq/prompts";
import type { z } from "zod";
import type { Settings } from "../config/settings";
import type { LlmCallRecord, PipelineEvent, PipelineEventListener } from "../contract/events";
import { CancelledError } from "../errors/cancelled-error";
import { type ResolvedModel, resolveStepModel } from "../models/resolve-model";
import type { StepName } from "../steps/step-registry";
import type { TelemetrySettings } from "../telemetry/pipeline-tracer";
import { LlmBudget } from "./llm-budget";
import type { LlmCallKey, LlmResponseCache } from "./llm-response-cache";
import { parseStepOutput } from "./recover-json";
import { runStep } from "./run-step";

export interface ModelStepOptions<OUTPUT> {
  /** Step name; selects the model (`NLQ_MODEL_<STEP>`) and the scripted response. */
  readonly step: StepName;
  readonly schema: z.ZodType<OUTPUT>;
  readonly system?: string;
  readonly prompt: string;
  /** Default: `settings.temperature`. */
  readonly temperature?: number;
  /**
   * Which sample of a step that runs several times per question (generators × samples) this call is; scripted
   * fixtures and the response cache key on it. Default 0.
   */
  readonly sample?: number;
}

/**
 * Everything a pipeline stage needs for one question: the question, settings, the shared budget, cancellation,
 * progress events and `runModelStep`, which calls the step's configured model and records the call.
 */
export interface StepContext {
  readonly question: string;
  readonly hint?: string;
  /**
   * The knowledge retrieved for the question and the asking session's date and time zone, once the catalog is read:
   * the generators, the fixer and the selection agent put it in their prompts. Default: none.
   */
  readonly questionContext?: PromptQuestionContext;
  readonly settings: Settings;
  readonly budget: LlmBudget;
  readonly abortSignal?: AbortSignal;
  /** Every model call so far, in order. */
  readonly calls: readonly LlmCallRecord[];
  emit(event: PipelineEvent): void;
  runModelStep<OUTPUT>(options: ModelStepOptions<OUTPUT>): Promise<OUTPUT>;
  /** Model used by a step (`provider:model`, scripted or not) — resolves without calling it. */
  modelForStep(step: StepName): { readonly id: string; readonly scripted: boolean };
  /** Throws `CancelledError` once the question was cancelled. */
  throwIfCancelled(): void;
}

export interface StepContextOptions {
  readonly question: string;
  readonly hint?: string;
  readonly settings: Settings;
  readonly abortSignal?: AbortSignal;
  readonly onEvent?: PipelineEventListener;
  /**
   * Model of each step, called once per step (the result is reused for the rest of the question).
   * Default: `resolveStepModel(settings, step)` (`NLQ_MODEL_<STEP>`, then `NLQ_MODEL`).
   */
  readonly resolveModel?: (step: string) => ResolvedModel;
  /** Responses of earlier identical calls (real models only). Default: none. */
  readonly cache?: LlmResponseCache;
  /** Whether model calls join the question's trace (`answerQuestion` decides per question). Default: off. */
  readonly telemetry?: TelemetrySettings;
}

/**
 * Reads the cache without ever failing: a broken cache is a miss. An output cached before a nullable property became
 * required still parses (the property reads as null).
 */
async function cachedOutput<OUTPUT>(
  cache: LlmResponseCache,
  key: LlmCallKey,
  schema: z.ZodType<OUTPUT>,
): Promise<{ output: OUTPUT; inputTokens: number; outputTokens: number } | undefined> {
  try {
    const cached = await cache.get(key);
    if (!cached) return undefined;
    const output = parseStepOutput(cached.output, schema);
    return output === undefined
      ? undefined
      : { output, inputTokens: cached.inputTokens, outputTokens: cached.outputTokens };
  } catch {
    return undefined;
  }
}

export function createStepContext(options: StepContextOptions): StepContext {
  const calls: LlmCallRecord[] = [];
  const budget = new LlmBudget({
    maxCalls: options.settings.maxLlmCalls,
    deadlineMilliseconds: options.settings.deadlineMilliseconds,
    maxTokens: options.settings.maxTokens,
  });
  const emit = (event: PipelineEvent) => options.onEvent?.(event);
  const resolveUncached = options.resolveModel ?? ((step: string) => resolveStepModel(options.settings, step));
  // One resolution per step and question: the fixer and batched steps call the same step's model repeatedly.
  const resolvedModels = new Map<string, ResolvedModel>();
  const resolveModel = (step: string): ResolvedModel => {
    let resolved = resolvedModels.get(step);
    if (!resolved) {
      resolved = resolveUncached(step);
      resolvedModels.set(step, resolved);
    }
    return resolved;
  };
  return {
    question: options.question,
    hint: options.hint,
    settings: options.settings,
    budget,
    abortSignal: options.abortSignal,
    calls,
    emit,
    modelForStep(step) {
      const resolved = resolveModel(step);
      return { id: resolved.id, scripted: resolved.scripted };
    },
    throwIfCancelled() {
      if (options.abortSignal?.aborted) throw new CancelledError();
    },
    async runModelStep<OUTPUT>(step: ModelStepOptions<OUTPUT>): Promise<OUTPUT> {
      const resolved = resolveModel(step.step);
      const temperature = step.temperature ?? options.settings.temperature;
      const key: LlmCallKey = {
        model: resolved.id,
        step: step.step,
        ...(step.system === undefined ? {} : { system: step.system }),
        prompt: step.prompt,
        temperature,
        sample: step.sample ?? 0,
      };
      const cache = resolved.scripted ? undefined : options.cache;
      emit({ type: "llm-call-start", step: step.step });
      if (cache) {
        if (options.abortSignal?.aborted) throw new CancelledError();
        const hit = await cachedOutput(cache, key, step.schema);
        if (hit) {
          // A cached response costs no call and no time: it is recorded (cached: true) but not charged to the budget.
          const call: LlmCallRecord = {
            step: step.step,
            model: resolved.id,
            scripted: false,
            cached: true,
            inputTokens: hit.inputTokens,
            outputTokens: hit.outputTokens,
            latencyMilliseconds: 0,
          };
          calls.push(call);
          emit({ type: "llm-call-end", call });
          return hit.output;
        }
      }
      const result = await runStep({
        step: step.step,
        model: resolved.model,
        modelId: resolved.id,
        scripted: resolved.scripted,
        schema: step.schema,
        system: step.system,
        prompt: step.prompt,
        temperature,
        sample: step.sample ?? 0,
        abortSignal: options.abortSignal,
        question: options.question,
        budget,
        ...(options.telemetry ? { telemetry: options.telemetry } : {}),
        onCall: (call) => {
          calls.push(call);
          emit({ type: "llm-call-end", call });
        },
      });
      if (cache) {
        await cache
          .put(key, {
            output: result.output,
            inputTokens: result.call.inputTokens,
            outputTokens: result.call.outputTokens,
          })
          .catch(() => undefined);
      }
      return result.output;
    },
  };
}
