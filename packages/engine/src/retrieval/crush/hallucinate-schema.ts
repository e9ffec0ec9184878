import {
  type HallucinatedColumn,
  parseHallucinatedSchema,
  type SchemaHallucinationExample,
  schemaHallucinationOutputSchema,
  schemaHallucinationPrompt,
  schemaHallucinationSystemPrompt,
} from "@nlq/prompts";
import type { LanguageModel } from "ai";
import type { LlmBudget } from "../../llm/llm-budget";
import { runStep } from "../../llm/run-step";
import type { LlmCallRecord } from "../../pipeline/events";

export interface HallucinateSchemaOptions {
  readonly model: LanguageModel;
  /** `provider:model` as configured, for accounting. */
  readonly modelId: string;
  readonly question: string;
  /** Optional evidence or hint, appended to the question. */
  readonly hint?: string;
  /** Few-shot examples. Default: CRUSH4SQL Table 12 (BIRD). */
  readonly examples?: readonly SchemaHallucinationExample[];
  /** Sampling temperature. Default 0 (the paper found temperature barely matters). */
  readonly temperature?: number;
  readonly abortSignal?: AbortSignal;
  readonly budget?: LlmBudget;
  readonly onCall?: (record: LlmCallRecord) => void;
}

export interface HallucinatedSchema {
  /** `Table(col, col)` strings as the model wrote them. */
  readonly tables: string[];
  /** One CRUSH probe per hallucinated `table.column`. */
  readonly elements: HallucinatedColumn[];
  readonly call: LlmCallRecord;
}

/** CRUSH4SQL §3.1: asks the model for a minimal schema that could answer the question. */
export async function hallucinateSchema(options: HallucinateSchemaOptions): Promise<HallucinatedSchema> {
  const { output, call } = await runStep({
    step: "hallucinate-schema",
    model: options.model,
    modelId: options.modelId,
    schema: schemaHallucinationOutputSchema,
    system: schemaHallucinationSystemPrompt,
    prompt: schemaHallucinationPrompt({
      question: options.question,
      ...(options.hint === undefined ? {} : { hint: options.hint }),
      ...(options.examples === undefined ? {} : { examples: options.examples }),
    }),
    temperature: options.temperature ?? 0,
    question: options.question,
    abortSignal: options.abortSignal,
    budget: options.budget,
    onCall: options.onCall,
  });
  return { tables: output.tables, elements: parseHallucinatedSchema(output.tables), call };
}
