/**
 * Everything that determines a model call's response: the cache key. Two calls with equal keys are the same call
 * (a re-run of a question or an evaluation), so the cached response stands in for a new one.
 */
export interface LlmCallKey {
  /** `provider:model` as configured. */
  readonly model: string;
  readonly step: string;
  readonly system?: string;
  readonly prompt: string;
  readonly temperature: number;
  /** Which sample of the step (0, 1, …): samples at the same temperature are distinct calls. */
  readonly sample: number;
}

export interface CachedLlmResponse {
  /** The step's structured output as the model returned it (validated again on use). */
  readonly output: unknown;
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/**
 * Where model responses are kept between questions (the metadata store's `llm_cache` table). Consulted before every
 * model call of a real (not scripted) model; a failing cache never fails a question.
 */
export interface LlmResponseCache {
  get(key: LlmCallKey): Promise<CachedLlmResponse | undefined>;
  put(key: LlmCallKey, response: CachedLlmResponse): Promise<void>;
}
