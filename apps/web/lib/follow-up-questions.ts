import { columnRole, planChart } from "./chart-plan";
import type { AnswerField } from "./chat-message";
import { wordsOf } from "./question-measures";

/** Most follow-up questions offered after an answer. */
const maximumFollowUps = 3;

export interface FollowUpInput {
  readonly question: string;
  readonly fields: readonly AnswerField[];
  readonly rows: ReadonlyArray<ReadonlyArray<string | null>>;
  /** The scripted demo's recorded questions: the only ones it can answer, so the only ones offered. */
  readonly recordedQuestions?: readonly string[];
  /** Questions already asked in this conversation (not offered again). */
  readonly asked?: readonly string[];
}

/** `average_order_value_usd` → `average order value usd`. */
function spoken(name: string): string {
  return name.replace(/[_\s]+/g, " ").trim();
}

/**
 * Questions worth asking next. With the scripted demo: its recorded questions sharing the most words with this one
 * (it can answer nothing else). Otherwise questions about this result's own columns: the extremes and shares of the
 * drawn measure per label, its change over time. Never one already asked; at most `maximumFollowUps`.
 */
export function followUpQuestions(input: FollowUpInput): string[] {
  const asked = new Set([input.question, ...(input.asked ?? [])].map((text) => text.trim().toLowerCase()));
  const fresh = (candidates: readonly string[]) =>
    candidates.filter((candidate) => !asked.has(candidate.trim().toLowerCase())).slice(0, maximumFollowUps);
  if (input.recordedQuestions && input.recordedQuestions.length > 0) {
    const words = wordsOf(input.question);
    const ranked = input.recordedQuestions
      .map((candidate, position) => ({
        candidate,
        position,
        shared: [...wordsOf(candidate)].filter((word) => words.has(word)).length,
      }))
      .sort((first, second) => second.shared - first.shared || first.position - second.position)
      .map((entry) => entry.candidate);
    return fresh(ranked);
  }
  const plan = planChart(input.fields, input.rows, { question: input.question });
  const measureField =
    input.fields[plan.valueColumns[0] ?? -1] ?? input.fields.find((field) => columnRole(field) === "measure");
  if (!measureField) return [];
  const measure = spoken(measureField.name);
  const labelField = input.fields[plan.labelColumn];
  if (!labelField || plan.kind === "none") {
    return fresh([`How has the ${measure} changed month by month?`, `What is the ${measure} broken down by category?`]);
  }
  const label = spoken(labelField.name);
  if (columnRole(labelField) === "time") {
    return fresh([
      `Which ${label} had the highest ${measure}?`,
      `How did the ${measure} change from one ${label} to the next, in percent?`,
      `What was the total ${measure} over the whole period?`,
    ]);
  }
  return fresh([
    `Which ${label} has the lowest ${measure}?`,
    `What share of the total ${measure} does each ${label} have?`,
    `How has the ${measure} of each ${label} changed month by month?`,
  ]);
}
