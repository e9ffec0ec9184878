import type { QuestionOutcome } from "./evaluate-questions";
import type { AccuracyFigure } from "./pool-report";
import { type ReadingFigures, readingFigures } from "./reading-figures";

/** Figures of one category (or of all questions). */
export interface CategoryFigure extends AccuracyFigure {
  readonly questions: number;
  /** EX under the official Spider rule (a permutation of columns is the same result; `spider-result-rule.ts`). */
  readonly spiderEx: number;
  /** Both readings found, false alarms, interpretations shown, `needsChoice`. */
  readonly readings: ReadingFigures;
}

/** One question of the report: what the engine chose, whether it was right, what it cost and how it chose. */
export interface QuestionResult
  extends Pick<
    QuestionOutcome,
    | "id"
    | "category"
    | "correct"
    | "setCorrect"
    | "spiderCorrect"
    | "goldReadings"
    | "readings"
    | "bothFound"
    | "eitherFound"
    | "falseAlarm"
    | "interpretations"
    | "needsChoice"
    | "sql"
    | "error"
    | "failedIn"
    | "errorName"
    | "errorCode"
    | "confidence"
  > {
  /** False when no gold alternative ran: reported, not scored. */
  readonly scored: boolean;
  /** Interpretations whose SQL did not run when scored (left out when none failed). */
  readonly interpretationErrors?: QuestionOutcome["interpretationErrors"];
  /** Model calls made for it (failed ones included). */
  readonly calls: number;
  /** Candidates written, and the distinct results (clusters) of those that ran. */
  readonly candidates?: number;
  readonly clusters?: number;
  /** The selector that chose (`single` when every candidate that ran agreed), and how confidence was computed. */
  readonly chosenBy?: string;
  readonly basis?: string;
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
    spiderCorrect: outcome.spiderCorrect,
    goldReadings: outcome.goldReadings,
    readings: outcome.readings,
    ...(outcome.bothFound === undefined ? {} : { bothFound: outcome.bothFound, eitherFound: outcome.eitherFound }),
    ...(outcome.falseAlarm === undefined ? {} : { falseAlarm: outcome.falseAlarm }),
    interpretations: outcome.interpretations,
    needsChoice: outcome.needsChoice,
    ...(outcome.interpretationErrors.length === 0 ? {} : { interpretationErrors: outcome.interpretationErrors }),
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
    spiderEx: mean(outcomes.map((outcome) => Number(outcome.spiderCorrect))),
    readings: readingFigures(outcomes),
  };
}

/**
 * Summarises answered questions: EX (nlq's and the Spider rule) and the reading figures overall and per category, mean
 * calls, tokens and time per question.
 */
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
