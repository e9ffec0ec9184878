import {
  type ExtractKeywordsExample,
  extractKeywordsOutputSchema,
  extractKeywordsPrompt,
  extractKeywordsSystemPrompt,
} from "@nlq/prompts";
import type { StepContext } from "../../llm/step-context";

export interface ExtractKeywordsOptions {
  readonly context: StepContext;
  /** Few-shot examples. Default: the prompt's `extractKeywordsExamples`. */
  readonly examples?: readonly ExtractKeywordsExample[];
  /** Keywords kept after the model's whatever it answers (`namedValues` of the question). Default none. */
  readonly alsoKeep?: readonly string[];
}

/** Trimmed, non-empty, first spelling of each keyword kept (case-insensitive duplicates dropped). */
export function distinctKeywords(keywords: Iterable<string>): string[] {
  const seen = new Set<string>();
  const result: string[] = [];
  for (const keyword of keywords) {
    const trimmed = keyword.replace(/\s+/g, " ").trim();
    if (trimmed === "" || seen.has(trimmed.toLowerCase())) continue;
    seen.add(trimmed.toLowerCase());
    result.push(trimmed);
  }
  return result;
}

/**
 * CHESS extract_keywords: one few-shot model call (step `extract-keywords`) over the question and the context's hint,
 * followed by `alsoKeep`. Emits `keywords-end`.
 */
export async function extractKeywords(options: ExtractKeywordsOptions): Promise<string[]> {
  const output = await options.context.runModelStep({
    step: "extract-keywords",
    schema: extractKeywordsOutputSchema,
    system: extractKeywordsSystemPrompt,
    prompt: extractKeywordsPrompt({
      question: options.context.question,
      hint: options.context.hint,
      examples: options.examples,
    }),
  });
  const keywords = distinctKeywords([...output.keywords, ...(options.alsoKeep ?? [])]);
  options.context.emit({ type: "keywords-end", keywords, source: "model" });
  return keywords;
}
