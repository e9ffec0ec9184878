import {
  type CandidateCluster,
  type Catalog,
  candidateSelector,
  createStepContext,
  type ExecutedCandidate,
  type LlmCallRecord,
  ModelConfigurationError,
  type ResolvedModel,
  renderSchema,
  resolveStepModel,
  type SelectorName,
  type Settings,
  seededRandom,
} from "@nlq/engine";
import type { PoolQuestion } from "./candidate-pool";

/** Selectors of `nlq eval --candidates` that call a model. */
export type ModelSelectorName = Extract<SelectorName, "pairwise" | "unit-tests">;

export const modelSelectorNames: readonly ModelSelectorName[] = ["pairwise", "unit-tests"];

/** What the model selectors need: which to run, the settings and models, and each question's catalog. */
export interface PoolModelSelection {
  readonly selectors: readonly ModelSelectorName[];
  readonly settings: Settings;
  /** Model of each step; default from `settings` (`NLQ_MODEL_SELECTION`, `NLQ_MODEL`). Tests pass mock models. */
  readonly resolveModel?: (step: string) => ResolvedModel;
  /** The catalog the question's SQL runs against (its `schema`, or the connection's search path). */
  readonly loadCatalog: (schema: string | undefined) => Promise<Catalog>;
}

/**
 * The model the selection steps would call (`select-candidate`: `NLQ_MODEL_SELECTION`, then `NLQ_MODEL`), or undefined
 * when none is configured (the model selectors are then left out of the report).
 */
export function selectionModel(options: {
  readonly settings: Settings;
  readonly resolveModel?: (step: string) => ResolvedModel;
}): { readonly id: string; readonly scripted: boolean } | undefined {
  try {
    const resolved = (options.resolveModel ?? ((step) => resolveStepModel(options.settings, step)))("select-candidate");
    return { id: resolved.id, scripted: resolved.scripted };
  } catch (error) {
    if (ModelConfigurationError.isInstance(error)) return undefined;
    throw error;
  }
}

/** What one selector chose for one question. */
export interface SelectorChoice {
  /** Index (in the question's candidate list) of the chosen cluster's representative; undefined when none ran. */
  readonly choice?: number;
  readonly confidence?: number;
  /** The selector's model calls for this question. */
  readonly calls: readonly LlmCallRecord[];
  /** Why the selector failed (its question then counts as wrong). */
  readonly error?: string;
}

/**
 * Runs one model selector over a question's executed candidates, as the engine would: a fresh step context per
 * question and selector (the question's own budget: `NLQ_MAX_LLM_CALLS`, `NLQ_MAX_TOKENS`, `NLQ_DEADLINE_MS`), the
 * question's catalog rendered as the schema, seeded randomness. One cluster is chosen without a call. A selector
 * error (a malformed model answer, an exhausted budget) is returned, never thrown.
 */
export async function runModelSelector(
  name: ModelSelectorName,
  question: PoolQuestion,
  candidates: readonly ExecutedCandidate[],
  clusters: readonly CandidateCluster[],
  selection: PoolModelSelection,
): Promise<SelectorChoice> {
  if (clusters.length === 0) return { calls: [] };
  if (clusters.length === 1) return { choice: clusters[0]!.representative.index, confidence: 1, calls: [] };
  const context = createStepContext({
    question: question.question,
    settings: selection.settings,
    ...(selection.resolveModel ? { resolveModel: selection.resolveModel } : {}),
  });
  try {
    const catalog = await selection.loadCatalog(question.schema);
    const outcome = await candidateSelector(name).select({
      candidates,
      clusters,
      catalog,
      schema: renderSchema(catalog),
      context,
      random: seededRandom(8),
    });
    return { choice: outcome.cluster.representative.index, confidence: outcome.confidence, calls: [...context.calls] };
  } catch (error) {
    return { calls: [...context.calls], error: error instanceof Error ? error.message : String(error) };
  }
}
