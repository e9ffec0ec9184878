import { readFileSync } from "node:fs";
import { resolveScriptedModelPaths } from "./scripted-model-paths";
import { questionsOfFixture } from "./suggested-questions";

/** Most recorded questions offered. */
const maximumRecordedQuestions = 100;

/**
 * Every question the scripted demo model has a recorded answer for (`NLQ_MODEL=scripted:<fixture>`), in file order,
 * at most `maximumRecordedQuestions`; empty when the model is not scripted or its fixture cannot be read. The page
 * offers them when a question is not one of them, instead of a model failure.
 */
export function recordedQuestions(environment: Record<string, string | undefined> = process.env): string[] {
  const fixture = resolveScriptedModelPaths(environment)
    .NLQ_MODEL?.trim()
    .match(/^scripted:(.+)$/)?.[1];
  if (fixture === undefined) return [];
  try {
    return questionsOfFixture(
      JSON.parse(readFileSync(/* turbopackIgnore: true */ fixture, "utf8")),
      maximumRecordedQuestions,
    );
  } catch {
    return [];
  }
}
