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

/**
 * Whether the text opens with the name, so the name says nothing the text does not: an imported line named by its
 * first words (`To get the success rate of…`) or by what it defines (`TAC (2)` for `TAC = Total Active Customers…`;
 * the counter that tells two entries of one name apart and the ellipsis of a cut name are not the text's).
 */
function textOpensWithName(name: string, text: string): boolean {
  const bare = name
    .replace(/\s*\(\d+\)$/, "")
    .replace(/…$/, "")
    .trim()
    .toLowerCase();
  const opening = text.toLowerCase();
  return bare !== "" && opening.startsWith(bare) && !/^[\p{L}\p{N}]/u.test(opening.slice(bare.length));
}

/**
 * One entry on one line: `- Metric "net revenue": Revenue net of refunds. SQL: sum(amount) - sum(refund)`; the name
 * left out when the text opens with it (`- Term: TAC = Total Active Customers…`), as imported glossary lines do.
 */
export function renderKnowledgeLine(entry: PromptKnowledge): string {
  const label = kindLabels[entry.kind] ?? "Definition";
  const sql = entry.sql?.trim() ? ` SQL: ${oneLine(entry.sql)}` : "";
  const text = oneLine(entry.text);
  const name = oneLine(entry.name);
  return textOpensWithName(name, text) ? `- ${label}: ${text}${sql}` : `- ${label} "${name}": ${text}${sql}`;
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
