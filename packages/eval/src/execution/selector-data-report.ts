import type { SelectorDataOutcome } from "./collect-selector-data";

/** The figures `nlq selector-data` prints, each counted from the questions' outcomes. */
export interface SelectorDataReport {
  readonly questions: number;
  /** Questions at least one of whose gold alternatives ran (the others are listed under `goldErrors`). */
  readonly evaluated: number;
  /** Candidates written (failed ones included) and the ones that ran, over all questions. */
  readonly candidates: number;
  readonly executed: number;
  readonly clusters: number;
  /** Clusters whose representative matches the gold. */
  readonly correctClusters: number;
  readonly examples: number;
  /** Evaluated questions that gave examples (a correct and an incorrect cluster). */
  readonly questionsWithExamples: number;
  /** Evaluated questions none of whose clusters is correct (no candidate ran, or none matches the gold). */
  readonly questionsWithoutCorrectCandidate: number;
  /** Evaluated questions every cluster of which is correct (nothing to contrast). */
  readonly questionsAllCorrect: number;
  /** Questions the engine stopped on before writing candidates, with why. */
  readonly failures: readonly { readonly id: string; readonly error: string }[];
  readonly goldErrors: readonly { readonly id: string; readonly error: string; readonly scored: boolean }[];
  /** Model calls of all questions; `cachedCalls` of them answered from the response cache. */
  readonly llmCalls: number;
  readonly cachedCalls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** The generation model, and whether it is a scripted replay. */
  readonly model: { readonly id: string; readonly scripted: boolean };
}

/** Sums the outcomes of `collectSelectorData` into the printed report. */
export function summarizeSelectorData(
  outcomes: readonly SelectorDataOutcome[],
  model: SelectorDataReport["model"],
): SelectorDataReport {
  const evaluated = outcomes.filter((outcome) => outcome.evaluated);
  const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
  const calls = outcomes.flatMap((outcome) => outcome.calls);
  return {
    questions: outcomes.length,
    evaluated: evaluated.length,
    candidates: sum(outcomes.map((outcome) => outcome.candidates)),
    executed: sum(outcomes.map((outcome) => outcome.executed)),
    clusters: sum(outcomes.map((outcome) => outcome.clusters)),
    correctClusters: sum(outcomes.map((outcome) => outcome.correctClusters)),
    examples: sum(outcomes.map((outcome) => outcome.examples)),
    questionsWithExamples: evaluated.filter((outcome) => outcome.examples > 0).length,
    questionsWithoutCorrectCandidate: evaluated.filter((outcome) => outcome.correctClusters === 0).length,
    questionsAllCorrect: evaluated.filter(
      (outcome) => outcome.clusters > 0 && outcome.correctClusters === outcome.clusters,
    ).length,
    failures: outcomes.flatMap((outcome) =>
      outcome.error === undefined ? [] : [{ id: outcome.id, error: outcome.error }],
    ),
    goldErrors: outcomes.flatMap((outcome) =>
      outcome.goldErrors.map((error) => ({ id: outcome.id, error: error.error, scored: outcome.evaluated })),
    ),
    llmCalls: calls.length,
    cachedCalls: calls.filter((call) => call.cached === true).length,
    inputTokens: sum(calls.map((call) => call.inputTokens)),
    outputTokens: sum(calls.map((call) => call.outputTokens)),
    model,
  };
}
