import {
  type HallucinatedColumn,
  parseHallucinatedSchema,
  type SchemaHallucinationExample,
  schemaHallucinationOutputSchema,
  schemaHallucinationPrompt,
  schemaHallucinationSystemPrompt,
} from "@nlq/prompts";
import type { LlmCallRecord } from "../../contract/events";
import type { StepContext } from "../../llm/step-context";

export interface HallucinateSchemaOptions {
  /** Few-shot examples. Default: CRUSH4SQL Table 12 (BIRD). */
  readonly examples?: readonly SchemaHallucinationExample[];
}

export interface HallucinatedSchema {
  /** `Table(col, col)` strings as the model wrote them. */
  readonly tables: string[];
  /** One CRUSH probe per hallucinated `table.column`. */
  readonly elements: HallucinatedColumn[];
  /** The model call (step `hallucinate-schema`), as recorded in the question's trace. */
  readonly call: LlmCallRecord;
}

/**
 * CRUSH4SQL §3.1: asks the question's model for step `hallucinate-schema` for a minimal schema that could answer the
 * question (with its hint), through the question's `StepContext` (budget, cancellation, trace). The only hallucinator:
 * the live CRUSH preselection and its tests use it.
 */
export async function hallucinateSchema(
  context: StepContext,
  options: HallucinateSchemaOptions = {},
): Promise<HallucinatedSchema> {
  const output = await context.runModelStep({
    step: "hallucinate-schema",
    schema: schemaHallucinationOutputSchema,
    system: schemaHallucinationSystemPrompt,
    prompt: schemaHallucinationPrompt({
      question: context.question,
      ...(context.hint === undefined ? {} : { hint: context.hint }),
      ...(options.examples === undefined ? {} : { examples: options.examples }),
    }),
  });
  return { tables: output.tables, elements: parseHallucinatedSchema(output.tables), call: context.calls.at(-1)! };
}
