import { readFileSync } from "node:fs";
import { resolveScriptedModelPaths } from "./scripted-model-paths";
import { questionsOfFixture } from "./suggested-questions";

/**
 * The recorded questions of a scripted model (`scripted:<fixture>`), in file order, at most `maximum` (default: the
 * number of suggestion chips); empty when `model` is not scripted or its fixture cannot be read.
 */
export function questionsOfScriptedModel(model: string | undefined, maximum?: number): string[] {
  const fixture = model?.trim().match(/^scripted:(.+)$/)?.[1];
  if (fixture === undefined) return [];
  try {
    return questionsOfFixture(JSON.parse(readFileSync(/* turbopackIgnore: true */ fixture, "utf8")), maximum);
  } catch {
    return [];
  }
}

/**
 * Every question the scripted demo model has a recorded answer for (`NLQ_MODEL=scripted:<fixture>`), in file order;
 * empty when the model is not scripted or its fixture cannot be read. The page offers them when a question is not
 * one of them, instead of a model failure.
 */
export function recordedQuestions(environment: Record<string, string | undefined> = process.env): string[] {
  return questionsOfScriptedModel(resolveScriptedModelPaths(environment).NLQ_MODEL, 100);
}
