import { readdirSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import * as divideAndConquerPrompt from "./divide-and-conquer-prompt";
import * as extractKeywordsPrompt from "./extract-keywords-prompt";
import * as findReadingsPrompt from "./find-readings-prompt";
import * as fixCandidatePrompt from "./fix-candidate-prompt";
import * as generateCandidatePrompt from "./generate-candidate-prompt";
import * as generateFromExamplesPrompt from "./generate-from-examples-prompt";
import * as generationPromptSections from "./generation-prompt-sections";
import * as queryPlanPrompt from "./query-plan-prompt";
import * as questionContextSection from "./question-context-section";
import * as schemaHallucinationPrompt from "./schema-hallucination-prompt";
import * as schemaSelectionPrompts from "./schema-selection-prompts";
import * as selectCandidatePrompt from "./select-candidate-prompt";
import * as sqlCandidateOutput from "./sql-candidate-output";
import * as summarizeAnswerPrompt from "./summarize-answer-prompt";
import * as synthesizeExamplesPrompt from "./synthesize-examples-prompt";
import * as unitTestPrompts from "./unit-test-prompts";

// Every step's output schema, as the AI SDK sends it (zod → JSON Schema draft-07, input side), must be accepted by
// every provider's structured outputs: OpenAI strict mode (every property required, `additionalProperties: false`,
// only the keywords its structured-outputs guide lists), Anthropic (`additionalProperties: false`, no length or count
// constraints), Gemini's OpenAPI subset, and the grammar engines of Ollama, vLLM and LM Studio. So a schema uses only
// the portable keywords below; any other check (lengths, counts, patterns) belongs to the engine, after parsing.

/** Keywords every provider's structured outputs accept. */
const portableKeywords = new Set([
  "$schema",
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "anyOf",
  "description",
]);

function problems(schema: unknown, path = "$", found: string[] = []): string[] {
  if (schema === null || typeof schema !== "object") return found;
  const node = schema as Record<string, unknown>;
  for (const keyword of Object.keys(node)) {
    if (!portableKeywords.has(keyword)) found.push(`${path}: keyword "${keyword}" is not portable`);
  }
  if (node.type === "object" || node.properties !== undefined) {
    const properties = Object.keys((node.properties as Record<string, unknown>) ?? {});
    const required = (node.required as string[] | undefined) ?? [];
    for (const property of properties) {
      if (!required.includes(property)) found.push(`${path}.${property}: not required (use .nullable())`);
    }
    // The AI SDK closes every object it sends (additionalProperties: false, checked on the requests by the engine's
    // provider contract tests); a schema must not open one.
    if (node.additionalProperties !== undefined && node.additionalProperties !== false)
      found.push(`${path}: additionalProperties is not false`);
    for (const [property, value] of Object.entries((node.properties as Record<string, unknown>) ?? {})) {
      problems(value, `${path}.${property}`, found);
    }
  }
  if (node.items !== undefined) problems(node.items, `${path}[]`, found);
  if (Array.isArray(node.anyOf)) {
    for (const [index, branch] of node.anyOf.entries()) problems(branch, `${path}.anyOf[${index}]`, found);
  }
  return found;
}

/** Every prompt module, by file name (not the package index, which holds only what other packages use). */
const promptModules: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  "divide-and-conquer-prompt": divideAndConquerPrompt,
  "extract-keywords-prompt": extractKeywordsPrompt,
  "find-readings-prompt": findReadingsPrompt,
  "fix-candidate-prompt": fixCandidatePrompt,
  "generate-candidate-prompt": generateCandidatePrompt,
  "generate-from-examples-prompt": generateFromExamplesPrompt,
  "generation-prompt-sections": generationPromptSections,
  "query-plan-prompt": queryPlanPrompt,
  "question-context-section": questionContextSection,
  "schema-hallucination-prompt": schemaHallucinationPrompt,
  "schema-selection-prompts": schemaSelectionPrompts,
  "select-candidate-prompt": selectCandidatePrompt,
  "sql-candidate-output": sqlCandidateOutput,
  "summarize-answer-prompt": summarizeAnswerPrompt,
  "synthesize-examples-prompt": synthesizeExamplesPrompt,
  "unit-test-prompts": unitTestPrompts,
};

/** Every export of every prompt module. */
const prompts: Readonly<Record<string, unknown>> = Object.assign({}, ...Object.values(promptModules));

const outputSchemas = Object.entries(prompts).filter(
  (entry): entry is [string, z.ZodType] => entry[0].endsWith("OutputSchema") && entry[1] instanceof z.ZodType,
);

describe("step output schemas", () => {
  it("are read from every module of the package (a new prompt file must be added here)", () => {
    const modules = readdirSync(dirname(fileURLToPath(import.meta.url)))
      .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts") && file !== "index.ts")
      .map((file) => file.slice(0, -".ts".length));
    expect(Object.keys(promptModules).sort()).toEqual(modules.sort());
  });

  it("are all found (every exported *OutputSchema is checked)", () => {
    expect(outputSchemas.map(([name]) => name).sort()).toEqual([
      "evaluateUnitTestOutputSchema",
      "extractKeywordsOutputSchema",
      "filterColumnOutputSchema",
      "findReadingsOutputSchema",
      "generateUnitTestsOutputSchema",
      "schemaHallucinationOutputSchema",
      "selectCandidateOutputSchema",
      "selectColumnsOutputSchema",
      "selectTablesOutputSchema",
      "sqlCandidateOutputSchema",
      "summarizeAnswerOutputSchema",
      "synthesizedExamplesOutputSchema",
    ]);
  });

  it.each(outputSchemas)(
    "%s is an object whose every property is required, closed, with portable keywords only",
    (_, schema) => {
      const json = z.toJSONSchema(schema, { target: "draft-7", io: "input" }) as Record<string, unknown>;
      expect(json.type).toBe("object");
      expect(problems(json)).toEqual([]);
    },
  );

  it("rejects what OpenAI strict mode refuses (the checker itself)", () => {
    const optional = z.toJSONSchema(z.looseObject({ reasoning: z.string().optional(), answer: z.string().min(1) }), {
      target: "draft-7",
      io: "input",
    });
    expect(problems(optional)).toEqual([
      "$.reasoning: not required (use .nullable())",
      "$: additionalProperties is not false",
      '$.answer: keyword "minLength" is not portable',
    ]);
  });

  it("keeps optional reasoning as a required nullable property", () => {
    expect(selectCandidatePrompt.selectCandidateOutputSchema.parse({ reasoning: null, answer: "B" })).toEqual({
      reasoning: null,
      answer: "B",
    });
    expect(schemaSelectionPrompts.selectTablesOutputSchema.safeParse({ table_names: ["a"] }).success).toBe(false);
  });
});
