import type { QuestionOutcome } from "./evaluate-questions";
import type { AccuracyFigure } from "./pool-report";

/** Figures of one category (or of all questions). */
export interface CategoryFigure extends AccuracyFigure {
  readonly questions: number;
}

/** One question of the report: what the engine chose, whether it was right, what it cost and how it chose. */
export interface QuestionResult {
  readonly id: string;
  readonly category: string;
  /** False when no gold alternative ran: reported, not scored. */
  readonly scored: boolean;
  readonly correct: boolean;
  readonly setCorrect: boolean;
  /** The SQL the engine chose; absent when it failed. */
  readonly sql?: string;
  /** The engine's error (no SQL chosen) or the chosen SQL's execution error. */
  readonly error?: string;
  /** `engine` (the engine threw: `errorName`, `errorCode`) or `execution` (the chosen SQL did not run). */
  readonly failedIn?: "engine" | "execution";
  readonly errorName?: string;
  readonly errorCode?: string;
  /** Model calls made for it (failed ones included). */
  readonly calls: number;
  /** Candidates written, and the distinct results (clusters) of those that ran. */
  readonly candidates?: number;
  readonly clusters?: number;
  /** The selector that chose (`single` when every candidate that ran agreed), and how confidence was computed. */
  readonly chosenBy?: string;
  readonly basis?: string;
  readonly confidence?: number;
  readonly milliseconds: number;
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
  /** Every question, in the order asked. */
  readonly results: readonly QuestionResult[];
}

/** The report line of one answered question. */
export function questionResult(outcome: QuestionOutcome): QuestionResult {
  return {
    id: outcome.id,
    category: outcome.category,
    scored: outcome.evaluated,
    correct: outcome.correct,
    setCorrect: outcome.setCorrect,
    ...(outcome.sql === undefined ? {} : { sql: outcome.sql }),
    ...(outcome.error === undefined ? {} : { error: outcome.error }),
    ...(outcome.failedIn === undefined ? {} : { failedIn: outcome.failedIn }),
    ...(outcome.errorName === undefined ? {} : { errorName: outcome.errorName }),
    ...(outcome.errorCode === undefined ? {} : { errorCode: outcome.errorCode }),
    calls: outcome.calls.length,
    ...(outcome.selection
      ? {
          candidates: outcome.selection.candidates,
          clusters: outcome.selection.clusters,
          chosenBy: outcome.selection.selector,
          basis: outcome.selection.basis,
        }
      : {}),
    ...(outcome.confidence === undefined ? {} : { confidence: outcome.confidence }),
    milliseconds: outcome.elapsedMilliseconds,
  };
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
    results: outcomes.map(questionResult),
  };
}
