import type { QuestionOutcome } from "./evaluate-questions";
import type { AccuracyFigure } from "./pool-report";

/** Figures of one category (or of all questions). */
export interface CategoryFigure extends AccuracyFigure {
  readonly questions: number;
}

/** The `--json` report of `nlq eval --questions`. */
export interface QuestionReport extends CategoryFigure {
  readonly model: { readonly id: string; readonly scripted: boolean };
  readonly categories: Readonly<Record<string, CategoryFigure>>;
  /** Means per scored question. */
  readonly perQuestion: {
    readonly llmCalls: number;
    readonly inputTokens: number;
    readonly outputTokens: number;
    readonly milliseconds: number;
  };
  /** Scored questions the engine or its SQL failed on (counted wrong). */
  readonly failures: number;
  readonly goldErrors: ReadonlyArray<{
    readonly id: string;
    readonly sql: string;
    readonly error: string;
    readonly scored: boolean;
  }>;
}

const mean = (values: readonly number[]) =>
  values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;

function figureOf(outcomes: readonly QuestionOutcome[]): CategoryFigure {
  return {
    questions: outcomes.length,
    ex: mean(outcomes.map((outcome) => Number(outcome.correct))),
    setEx: mean(outcomes.map((outcome) => Number(outcome.setCorrect))),
  };
}

/** Summarises answered questions: EX overall and per category, mean calls, tokens and time per question. */
export function summarizeQuestions(
  outcomes: readonly QuestionOutcome[],
  model: { readonly id: string; readonly scripted: boolean },
): QuestionReport {
  const scored = outcomes.filter((outcome) => outcome.evaluated);
  const categories = [...new Set(scored.map((outcome) => outcome.category))].sort();
  const sum = (calls: QuestionOutcome["calls"], pick: (call: QuestionOutcome["calls"][number]) => number) =>
    calls.reduce((total, call) => total + pick(call), 0);
  return {
    ...figureOf(scored),
    model,
    categories: Object.fromEntries(
      categories.map((category) => [category, figureOf(scored.filter((outcome) => outcome.category === category))]),
    ),
    perQuestion: {
      llmCalls: mean(scored.map((outcome) => outcome.calls.length)),
      inputTokens: mean(scored.map((outcome) => sum(outcome.calls, (call) => call.inputTokens))),
      outputTokens: mean(scored.map((outcome) => sum(outcome.calls, (call) => call.outputTokens))),
      milliseconds: mean(scored.map((outcome) => outcome.elapsedMilliseconds)),
    },
    failures: scored.filter((outcome) => outcome.error !== undefined).length,
    goldErrors: outcomes.flatMap((outcome) =>
      outcome.goldErrors.map((error) => ({ id: outcome.id, scored: outcome.evaluated, ...error })),
    ),
  };
}
