import { type EvaluateQuestionsOptions, evaluateQuestions, type QuestionOutcome } from "./evaluate-questions";
import type { AccuracyFigure } from "./pool-report";
import { type QuestionReport, summarizeQuestions } from "./question-report";
import { splitForVerifiedExamples, verifiedExamplesFrom } from "./verified-example-split";

/** The `--json` report of `nlq eval --questions FILE --compare-verified-examples`. */
export interface VerifiedExampleComparison {
  readonly model: { readonly id: string; readonly scripted: boolean };
  /** Seed of the split (`splitForVerifiedExamples`). */
  readonly seed: number;
  /** Ids of the questions whose gold pairs were the verified examples, and of the held-out questions answered. */
  readonly split: { readonly exampleIds: readonly string[]; readonly heldOutIds: readonly string[] };
  /** Held-out questions given at least one verified example (the others get the same prompt both ways). */
  readonly questionsWithExamples: number;
  /** The held-out half answered without verified examples. */
  readonly withoutExamples: QuestionReport;
  /** The held-out half answered with the example half's similar pairs as verified examples. */
  readonly withExamples: QuestionReport;
  /** `withExamples` minus `withoutExamples` (fractions: 0.05 is five percentage points). */
  readonly difference: AccuracyFigure;
  /** EX both ways over only the scored held-out questions that were given examples. */
  readonly questionsGivenExamples: {
    readonly questions: number;
    readonly withoutExamples: AccuracyFigure;
    readonly withExamples: AccuracyFigure;
  };
  /** Set when the model is a scripted replay: the figures then measure the harness, not a model's accuracy. */
  readonly note?: string;
}

export interface CompareVerifiedExamplesOptions
  extends Omit<EvaluateQuestionsOptions, "verifiedExamples" | "onQuestion"> {
  readonly seed: number;
  /** The generation model as the report names it (`generationModel`). */
  readonly model: { readonly id: string; readonly scripted: boolean };
  /** Called after each answered question of both runs (`done` of `total`). */
  readonly onProgress?: (done: number, total: number) => void;
}

/** The scripted-model caveat of the report. */
export const scriptedComparisonNote =
  "scripted replay, not a language model: its answers are recorded, so these figures check the harness and say nothing about accuracy; run it with a real model (NLQ_MODEL) to measure";

function accuracy(outcomes: readonly QuestionOutcome[]): AccuracyFigure {
  const mean = (pick: (outcome: QuestionOutcome) => boolean) =>
    outcomes.length === 0 ? 0 : outcomes.filter(pick).length / outcomes.length;
  return { ex: mean((outcome) => outcome.correct), setEx: mean((outcome) => outcome.setCorrect) };
}

/**
 * Measures what verified examples are worth (issue 11): splits the questions in two by a seeded rule, then answers
 * the held-out half twice with the engine — without verified examples, and with the example half's question–gold
 * pairs most similar to each question (the web app's retrieval) — and reports EX both ways and the difference.
 */
export async function compareVerifiedExamples(
  options: CompareVerifiedExamplesOptions,
): Promise<VerifiedExampleComparison> {
  const { seed, model, onProgress, ...evaluation } = options;
  const split = splitForVerifiedExamples(options.questions, seed);
  const examplesFor = verifiedExamplesFrom(split.examples);
  const given = new Set(
    split.heldOut.filter((question) => examplesFor(question).length > 0).map((question) => question.id),
  );
  const total = split.heldOut.length * 2;
  const without = await evaluateQuestions({
    ...evaluation,
    questions: split.heldOut,
    // Explicitly none: not even the metadata store's verified examples of this database.
    verifiedExamples: () => [],
    onQuestion: (_, index) => onProgress?.(index + 1, total),
  });
  const withExamples = await evaluateQuestions({
    ...evaluation,
    questions: split.heldOut,
    verifiedExamples: examplesFor,
    onQuestion: (_, index) => onProgress?.(split.heldOut.length + index + 1, total),
  });
  const withoutReport = summarizeQuestions(without, model);
  const withReport = summarizeQuestions(withExamples, model);
  const givenScored = (outcomes: readonly QuestionOutcome[]) =>
    outcomes.filter((outcome) => outcome.evaluated && given.has(outcome.id));
  return {
    model,
    seed,
    split: {
      exampleIds: split.examples.map((question) => question.id),
      heldOutIds: split.heldOut.map((question) => question.id),
    },
    questionsWithExamples: given.size,
    withoutExamples: withoutReport,
    withExamples: withReport,
    difference: { ex: withReport.ex - withoutReport.ex, setEx: withReport.setEx - withoutReport.setEx },
    questionsGivenExamples: {
      questions: givenScored(withExamples).length,
      withoutExamples: accuracy(givenScored(without)),
      withExamples: accuracy(givenScored(withExamples)),
    },
    ...(model.scripted ? { note: scriptedComparisonNote } : {}),
  };
}
