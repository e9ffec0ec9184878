import { z } from "zod";

/**
 * Finds the JSON object in a model's text when it is wrapped in prose or a Markdown fence
 * (```json … ```), as models without native structured output often do. Returns the parsed value or undefined.
 */
export function extractJsonObject(text: string): unknown {
  const candidates: string[] = [];
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  if (fenced?.[1]) candidates.push(fenced[1]);
  const first = text.indexOf("{");
  const last = text.lastIndexOf("}");
  if (first >= 0 && last > first) candidates.push(text.slice(first, last + 1));
  for (const candidate of candidates) {
    try {
      return JSON.parse(candidate.trim());
    } catch {
      // try the next candidate
    }
  }
  return undefined;
}

/**
 * `value` with every top-level property the object schema allows to be null, and that the reply left out, set to null.
 * Step schemas make every property required (OpenAI strict mode) and mark "none" with null; a provider without
 * structured outputs, or a model answering from the prompt's description, may simply omit such a property.
 */
function withOmittedNullsFilled(value: unknown, schema: z.ZodType): unknown {
  if (!(schema instanceof z.ZodObject) || value === null || typeof value !== "object" || Array.isArray(value)) {
    return value;
  }
  const filled: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const [key, property] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    if (!Object.hasOwn(filled, key) && property.safeParse(null).success) filled[key] = null;
  }
  return filled;
}

/**
 * `value` parsed as the step's output, a nullable property it leaves out read as null (a reply or a cached output
 * written before the property was required); undefined when it does not match.
 */
export function parseStepOutput<OUTPUT>(value: unknown, schema: z.ZodType<OUTPUT>): OUTPUT | undefined {
  const parsed = schema.safeParse(withOmittedNullsFilled(value, schema));
  return parsed.success ? parsed.data : undefined;
}

/**
 * The step's output recovered from loosely formatted text (prose, fences, omitted nullable properties), or undefined
 * when it still does not match the schema.
 */
export function recoverJsonOutput<OUTPUT>(text: string, schema: z.ZodType<OUTPUT>): OUTPUT | undefined {
  const value = extractJsonObject(text);
  return value === undefined ? undefined : parseStepOutput(value, schema);
}
