import { ConfigurationError } from "../errors/configuration-error";
import type { CandidateGenerator } from "./candidate-generator";
import { divideAndConquerGenerator } from "./divide-and-conquer-generator";
import { oneShotGenerator } from "./one-shot-generator";
import { queryPlanGenerator } from "./query-plan-generator";
import { syntheticExamplesGenerator } from "./synthetic-examples-generator";

/** Every candidate generator by the name presets use. Add a generator here once it implements `CandidateGenerator`. */
export const candidateGenerators = {
  "one-shot": oneShotGenerator,
  "divide-and-conquer": divideAndConquerGenerator,
  "query-plan": queryPlanGenerator,
  "synthetic-examples": syntheticExamplesGenerator,
} as const satisfies Record<string, CandidateGenerator>;

export type GeneratorName = keyof typeof candidateGenerators;

export const generatorNames = Object.keys(candidateGenerators) as GeneratorName[];

export function isGeneratorName(name: string): name is GeneratorName {
  return Object.hasOwn(candidateGenerators, name);
}

/** The generator called `name`; throws `ConfigurationError` naming the valid ones otherwise. */
export function generatorByName(name: string): CandidateGenerator {
  if (!isGeneratorName(name)) {
    throw new ConfigurationError(`unknown candidate generator "${name}"; use one of ${generatorNames.join(", ")}`);
  }
  return candidateGenerators[name];
}
