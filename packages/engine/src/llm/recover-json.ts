import type { z } from "zod";

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

/** The step's output recovered from loosely formatted text, or undefined when it still does not match the schema. */
export function recoverJsonOutput<OUTPUT>(text: string, schema: z.ZodType<OUTPUT>): OUTPUT | undefined {
  const value = extractJsonObject(text);
  if (value === undefined) return undefined;
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
