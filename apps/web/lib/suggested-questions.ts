import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/** Questions offered when the demo fixture is missing. */
export const fallbackQuestions: readonly string[] = [
  "how many customers are there?",
  "which products sell best?",
  "what was the revenue per month?",
];

/** Most suggestion chips shown. */
const maximumSuggestions = 6;

/**
 * The suggested questions: the recorded questions of the demo fixture (`fixtures/demo-model.json`, found
 * in the working directory or a parent, so it works from `apps/web` and from the repository root), in
 * file order without duplicates or the `*` fallback; `fallbackQuestions` when there is no fixture.
 */
export function readSuggestedQuestions(startDirectory = process.cwd()): string[] {
  const file = findUpwards(startDirectory, path.join("fixtures", "demo-model.json"));
  if (file === undefined) return [...fallbackQuestions];
  try {
    return questionsOfFixture(JSON.parse(readFileSync(/* turbopackIgnore: true */ file, "utf8")));
  } catch {
    return [...fallbackQuestions];
  }
}

/** The distinct recorded questions of a scripted-model fixture (`responses[].question`). */
export function questionsOfFixture(fixture: unknown): string[] {
  const responses = (fixture as { responses?: unknown } | null)?.responses;
  if (!Array.isArray(responses)) return [...fallbackQuestions];
  const seen = new Set<string>();
  const questions: string[] = [];
  for (const response of responses) {
    const question = (response as { question?: unknown } | null)?.question;
    if (typeof question !== "string") continue;
    const trimmed = question.trim();
    const key = trimmed.toLowerCase().replace(/[?.!\s]+$/, "");
    if (trimmed === "" || trimmed === "*" || seen.has(key)) continue;
    seen.add(key);
    questions.push(trimmed);
  }
  return questions.length > 0 ? questions.slice(0, maximumSuggestions) : [...fallbackQuestions];
}

/** The first `relativePath` that exists in `directory` or one of its parents. */
export function findUpwards(directory: string, relativePath: string): string | undefined {
  let current = path.resolve(directory);
  for (;;) {
    const candidate = path.join(current, relativePath);
    if (existsSync(/* turbopackIgnore: true */ candidate)) return candidate;
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}
