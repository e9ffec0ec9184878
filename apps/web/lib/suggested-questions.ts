import { existsSync } from "node:fs";
import path from "node:path";

/** Most suggestion chips shown. */
const maximumSuggestions = 6;

/**
 * The distinct recorded questions of a scripted-model fixture (`responses[].question`), in file order, without
 * duplicates or the `*` fallback, at most `maximum` (default: the number of suggestion chips); empty for a malformed
 * fixture.
 */
export function questionsOfFixture(fixture: unknown, maximum = maximumSuggestions): string[] {
  const responses = (fixture as { responses?: unknown } | null)?.responses;
  if (!Array.isArray(responses)) return [];
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
  return questions.slice(0, maximum);
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
