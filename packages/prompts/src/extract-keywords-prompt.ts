import { z } from "zod";

/**
 * CHESS extract_keywords (paper Fig. 7): a few-shot call that lists the keywords, keyphrases and named entities of a
 * question and its hint, keeping the user's spelling. The keywords probe the value index (retrieve_entity) and the
 * description vectors (retrieve_context). Step name `extract-keywords`; output `extractKeywordsOutputSchema`.
 */
export interface ExtractKeywordsExample {
  readonly question: string;
  readonly hint?: string;
  readonly keywords: readonly string[];
}

/** Default few-shot examples (CHESS-style, written for nlq). */
export const extractKeywordsExamples: readonly ExtractKeywordsExample[] = [
  {
    question: "What is the annual revenue of Acme Inc. in the fiscal year 2022?",
    hint: "annual revenue refers to revenue where period = 'annual'",
    keywords: ["annual revenue", "Acme Inc.", "fiscal year 2022", "revenue", "period", "annual"],
  },
  {
    question: "How many orders shipped to Berlin were cancelled last month?",
    keywords: ["orders", "shipped", "Berlin", "cancelled", "last month"],
  },
  {
    question: "Which employees in the Marketing department earn more than 50000?",
    hint: "earn refers to salary",
    keywords: ["employees", "Marketing department", "Marketing", "earn", "50000", "salary"],
  },
];

export interface ExtractKeywordsPromptOptions {
  readonly question: string;
  /** Evidence or hint; `"none"` when empty. */
  readonly hint?: string;
  /** Few-shot examples. Default: `extractKeywordsExamples`. */
  readonly examples?: readonly ExtractKeywordsExample[];
}

export const extractKeywordsSystemPrompt =
  "You extract search keywords from questions about a database. Answer only with the requested JSON object.";

function renderExample(example: ExtractKeywordsExample): string {
  return `Question: ${example.question}\nHint: ${example.hint?.trim() || "none"}\nAnswer: ${JSON.stringify({ keywords: example.keywords })}`;
}

export function extractKeywordsPrompt(options: ExtractKeywordsPromptOptions): string {
  const examples = (options.examples ?? extractKeywordsExamples).map(renderExample).join("\n\n");
  return `Objective: analyze the question and hint to identify and extract keywords, keyphrases and named entities. They will be used to search the database's values and its schema descriptions.

Instructions:
1. Read the question carefully: look for named entities (organizations, places, people, products), technical terms, numbers, dates and phrases that capture what is asked.
2. Analyze the hint: extract the keywords, phrases or named entities it mentions.
3. List the keywords (single words) and keyphrases (short phrases, named entities) from both in one list. Keep the original spelling and phrasing of the question and hint.

Examples:

${examples}

Task: identify the keywords, keyphrases and named entities of this question and hint.

Question: ${options.question.trim()}
Hint: ${options.hint?.trim() || "none"}
Answer:`;
}

export const extractKeywordsOutputSchema = z.object({
  keywords: z.array(z.string()).describe("Keywords, keyphrases and named entities, in the user's spelling."),
});

export type ExtractKeywordsOutput = z.infer<typeof extractKeywordsOutputSchema>;
