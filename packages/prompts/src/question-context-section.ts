/**
 * What a question is asked against besides the schema: the definitions people taught nlq for this database that were
 * retrieved for the question (terms, metrics, rules, confirmed readings), and the asking session's date and time
 * zone. The generators, the fixer and the selection agent all carry it, so each judges by the same definitions.
 */

/** One knowledge entry as the prompts show it. */
export interface PromptKnowledge {
  /** `term`, `metric`, `rule`, `reading` (descriptions reach the prompts as schema comments instead). */
  readonly kind: string;
  readonly name: string;
  readonly text: string;
  /** A metric's SQL expression or a rule's SQL condition. */
  readonly sql?: string;
}

export interface PromptQuestionContext {
  /** The entries retrieved for the question, most relevant first. Default: none (the lines are omitted). */
  readonly knowledge?: readonly PromptKnowledge[];
  /**
   * The asking session's current date (`current_date`, `YYYY-MM-DD`): the date, never the time of day, so prompts
   * and their cached responses stay the same all day. Default: none (the line is omitted).
   */
  readonly date?: string;
  /** The asking session's `TimeZone` setting. Default: none. */
  readonly timeZone?: string;
}

const kindLabels: Record<string, string> = { term: "Term", metric: "Metric", rule: "Rule", reading: "Reading" };

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** One entry on one line: `- Metric "net revenue": Revenue net of refunds. SQL: sum(amount) - sum(refund)`. */
export function renderKnowledgeLine(entry: PromptKnowledge): string {
  const label = kindLabels[entry.kind] ?? "Definition";
  const sql = entry.sql?.trim() ? ` SQL: ${oneLine(entry.sql)}` : "";
  return `- ${label} "${oneLine(entry.name)}": ${oneLine(entry.text)}${sql}`;
}

/**
 * The knowledge lines and the date line, ending in a blank line; "" (section omitted) when there is neither.
 */
export function renderQuestionContext(context: PromptQuestionContext | undefined): string {
  const knowledge = context?.knowledge ?? [];
  const parts: string[] = [];
  if (knowledge.length > 0) {
    parts.push(
      `Definitions of this database's business, written by its users (they decide what the question's terms mean; apply those that concern the question):\n${knowledge.map(renderKnowledgeLine).join("\n")}`,
    );
  }
  if (context?.date) {
    const zone = context.timeZone ? ` in the session's time zone (${context.timeZone})` : "";
    parts.push(
      `Today is ${context.date}${zone}. Resolve relative dates ("last month", "this year", "the past 30 days") from it, with the database's own date functions (CURRENT_DATE, now()).`,
    );
  }
  return parts.length > 0 ? `${parts.join("\n\n")}\n\n` : "";
}
