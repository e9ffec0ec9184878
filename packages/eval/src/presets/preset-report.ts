import { median } from "../statistics";
import { type PresetMeasurement, selectionSteps } from "./run-preset-benchmark";

/** Token approximation: no tokenizer package is installed, so tokens ≈ characters / 4 (OpenAI's rule of thumb). */
export function approximateTokens(characters: number): number {
  return Math.ceil(characters / 4);
}

/** One step's calls and approximate prompt tokens over the questions of one preset. */
export interface StepFigures {
  readonly callsTotal: number;
  readonly callsMedian: number;
  /** System + prompt characters / 4, summed over the step's calls. */
  readonly promptTokensTotal: number;
}

/** The figures of one preset; medians are per question. */
export interface PresetFigures {
  readonly preset: string;
  readonly model: string;
  readonly scripted: boolean;
  readonly questions: number;
  readonly answered: number;
  readonly failed: ReadonlyArray<{ readonly question: string; readonly error: string }>;
  /** Model calls per question (every question, failed ones included). */
  readonly callsMedian: number;
  readonly callsTotal: number;
  /** Prompt tokens (system + prompt characters / 4) per question, every question. */
  readonly promptTokensMedian: number;
  readonly promptTokensTotal: number;
  readonly steps: Readonly<Record<string, StepFigures>>;
  /** Over answered questions: candidates written and distinct results. */
  readonly candidatesMedian: number;
  readonly candidatesTotal: number;
  readonly clustersMedian: number;
  readonly clustersTotal: number;
  /** Answered questions whose candidates disagreed, so the selector was asked. */
  readonly questionsWithSelection: number;
  /** Calls the selection steps made (measured), over every question. */
  readonly selectorCalls: number;
  /** Calls that reached the model and failed (e.g. a scripted replay without a recorded response). */
  readonly failedCalls: number;
  /** The selector the preset configures. */
  readonly selector: string;
  /** Questions whose configured selector failed, so self-consistency chose instead (the engine's fallback). */
  readonly selectorFallbacks: number;
  /** Pairwise calls over cluster representatives vs. all ordered pairs of candidates (`pairwiseCallCount`), summed. */
  readonly pairwiseMade: number;
  readonly pairwiseAllPairs: number;
  readonly pairwiseSaved: number;
  /** Median wall time per question, milliseconds (every question). */
  readonly elapsedMillisecondsMedian: number;
  /** Questions where CRUSH ran in the live path and kept columns (`crush-end` without a fallback reason). */
  readonly crushQuestions: number;
  /** Questions where CRUSH started but fell back to no picks (its hallucination failed). */
  readonly crushFallbacks: number;
  /** Columns CRUSH kept per question where it ran, median; and its budget (the largest seen). */
  readonly crushColumnsMedian: number;
  readonly crushBudget: number;
  /** Columns shown to generation after schema selection (`schema-end`), median over the questions that reported it. */
  readonly schemaColumnsMedian: number;
  /** Sequential model rounds per question (`modelRounds`: the critical path), median and largest. */
  readonly modelRoundsMedian: number;
  readonly modelRoundsMaximum: number;
  /** `filter-column` calls per question where the step ran, median. */
  readonly filterBatchesMedian: number;
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
const total = (counts: Readonly<Record<string, number>>) => sum(Object.values(counts));

/** Summarizes the measurements of `runPresetBenchmark`, one entry per preset, in order. */
export function summarizePresets(results: readonly PresetMeasurement[]): PresetFigures[] {
  return results.map(({ preset, model, selector, questions }) => {
    const answered = questions.filter((question) => question.ok);
    const stepNames = [...new Set(questions.flatMap((question) => Object.keys(question.callsByStep)))];
    const steps: Record<string, StepFigures> = {};
    for (const step of stepNames) {
      const calls = questions.map((question) => question.callsByStep[step] ?? 0);
      steps[step] = {
        callsTotal: sum(calls),
        callsMedian: median(calls),
        promptTokensTotal: sum(questions.map((question) => approximateTokens(question.charactersByStep[step] ?? 0))),
      };
    }
    const tokens = questions.map((question) => approximateTokens(total(question.charactersByStep)));
    const calls = questions.map((question) => total(question.callsByStep));
    const crushed = questions.filter(
      (question) => question.crush !== undefined && question.crush.fallbackReason === undefined,
    );
    const pairwiseMade = sum(answered.map((question) => question.pairwise?.made ?? 0));
    const pairwiseAllPairs = sum(answered.map((question) => question.pairwise?.allPairs ?? 0));
    return {
      preset,
      model: model.id,
      scripted: model.scripted,
      questions: questions.length,
      answered: answered.length,
      failed: questions
        .filter((question) => !question.ok)
        .map((question) => ({ question: question.question, error: question.error ?? "" })),
      callsMedian: median(calls),
      callsTotal: sum(calls),
      promptTokensMedian: median(tokens),
      promptTokensTotal: sum(tokens),
      steps,
      candidatesMedian: median(answered.map((question) => question.candidates ?? 0)),
      candidatesTotal: sum(answered.map((question) => question.candidates ?? 0)),
      clustersMedian: median(answered.map((question) => question.clusters ?? 0)),
      clustersTotal: sum(answered.map((question) => question.clusters ?? 0)),
      questionsWithSelection: answered.filter((question) => (question.clusters ?? 0) > 1).length,
      selectorCalls: sum(
        questions.map((question) => sum(selectionSteps.map((step) => question.callsByStep[step] ?? 0))),
      ),
      failedCalls: sum(questions.map((question) => question.failedCalls)),
      selector,
      selectorFallbacks: answered.filter((question) => question.basis?.startsWith(`${selector} failed`)).length,
      pairwiseMade,
      pairwiseAllPairs,
      pairwiseSaved: pairwiseAllPairs - pairwiseMade,
      elapsedMillisecondsMedian: median(questions.map((question) => question.elapsedMilliseconds)),
      crushQuestions: crushed.length,
      crushFallbacks: questions.filter((question) => question.crush?.fallbackReason !== undefined).length,
      crushColumnsMedian: median(crushed.map((question) => question.crush!.columns)),
      crushBudget: Math.max(0, ...questions.map((question) => question.crush?.budget ?? 0)),
      schemaColumnsMedian: median(
        questions.flatMap((question) => (question.schemaColumns === undefined ? [] : [question.schemaColumns])),
      ),
      modelRoundsMedian: median(questions.map((question) => question.modelRounds)),
      modelRoundsMaximum: Math.max(0, ...questions.map((question) => question.modelRounds)),
      filterBatchesMedian: median(
        questions.flatMap((question) => (question.filterBatches ? [question.filterBatches.calls] : [])),
      ),
    };
  });
}
