import { ConfigurationError } from "../errors/configuration-error";
import type { CandidateSelector } from "./candidate-selector";
import { createPairwiseSelector } from "./pairwise-selector";
import { randomSelector } from "./random-selector";
import { selfConsistencySelector } from "./self-consistency-selector";
import { createUnitTestSelector } from "./unit-test-selector";

/**
 * Every selector by the name presets and `nlq eval` use. `pairwise` and `unit-tests` call models (steps
 * `select-candidate`, `generate-unit-tests`, `evaluate-unit-tests`); `self-consistency` and `random` do not.
 */
export const candidateSelectors = {
  "self-consistency": selfConsistencySelector,
  random: randomSelector,
  pairwise: createPairwiseSelector(),
  "unit-tests": createUnitTestSelector(),
} as const satisfies Record<string, CandidateSelector>;

export type SelectorName = keyof typeof candidateSelectors;

export const selectorNames = Object.keys(candidateSelectors) as SelectorName[];

/** Whether the selector asks a language model (so it needs `NLQ_MODEL` or `NLQ_MODEL_SELECTION`). */
export function selectorCallsModel(name: SelectorName): boolean {
  return name === "pairwise" || name === "unit-tests";
}

/** The selector called `name`; throws `ConfigurationError` (F0000) naming the valid names otherwise. */
export function candidateSelector(name: string): CandidateSelector {
  if (!Object.hasOwn(candidateSelectors, name)) {
    throw new ConfigurationError(`unknown candidate selector "${name}"; use one of ${selectorNames.join(", ")}`);
  }
  return candidateSelectors[name as SelectorName];
}
