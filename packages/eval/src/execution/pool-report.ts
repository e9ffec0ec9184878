import type { PoolQuestionOutcome } from "./evaluate-candidate-pool";
import type { GoldError } from "./gold-answer";
import { type ModelSelectorName, modelSelectorNames } from "./pool-selection";

/** Accuracy of one source or selector over the evaluated questions. */
export interface AccuracyFigure {
  /** Execution accuracy, 0–1. */
  readonly ex: number;
  /** BIRD-style set-equality accuracy, 0–1. */
  readonly setEx: number;
}

/** Per-source figures: over every candidate of that source (one per question in the usual pool). */
export interface SourceFigure extends AccuracyFigure {
  readonly candidates: number;
  /** Candidates that failed to run. */
  readonly errors: number;
}

/** A selector that calls a model: its accuracy and what it cost over the scored questions. */
export interface ModelSelectorFigure extends AccuracyFigure {
  /** Model calls, summed over the scored questions. */
  readonly llmCalls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Questions where the selector failed (malformed model answer, exhausted budget); each counts as wrong. */
  readonly failures: number;
  /** Mean of the confidence it reported over the questions it answered. */
  readonly meanConfidence: number;
}

/** The model the selectors called, as configured; `scripted` when it replays recorded answers. */
export interface SelectionModel {
  readonly id: string;
  readonly scripted: boolean;
}

/** The `--json` report of `nlq eval --candidates`. */
export interface PoolReport {
  /** Questions scored (those whose gold ran). */
  readonly questions: number;
  readonly sources: Readonly<Record<string, SourceFigure>>;
  readonly selectors: {
    readonly "self-consistency": AccuracyFigure;
    readonly oracle: AccuracyFigure;
    readonly random: AccuracyFigure;
    readonly pairwise?: ModelSelectorFigure;
    readonly "unit-tests"?: ModelSelectorFigure;
  };
  /** The selection model, when the model selectors ran. */
  readonly model?: SelectionModel;
  /**
   * Pairwise calls over all scored questions: `made` comparing cluster representatives in both orders, against
   * `allPairs` (every ordered pair of candidates) and `differingPairs` (Algorithm 3: ordered pairs with different results).
   */
  readonly pairwiseCalls: { readonly made: number; readonly allPairs: number; readonly differingPairs: number };
  /** Gold alternatives that failed, per question (a question none of whose alternatives ran is not scored). */
  readonly goldErrors: ReadonlyArray<GoldError & { readonly id: string; readonly scored: boolean }>;
}

const ratio = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);

/**
 * Summarises scored questions: EX per source, sources sorted by name (correct candidates of the source / its candidates); oracle (a question
 * is correct when any candidate is); random choice as its exact expectation (mean over questions of correct / all
 * candidates, errors included; 0 for a question without candidates); self-consistency (the engine's `largestCluster`);
 * and, when they ran (`model` given), the pairwise agent and the unit tester with their calls and tokens.
 */
export function summarizePool(outcomes: readonly PoolQuestionOutcome[], model?: SelectionModel): PoolReport {
  const scored = outcomes.filter((outcome) => outcome.evaluated);
  const sources = new Map<string, { candidates: number; correct: number; setCorrect: number; errors: number }>();
  let oracle = 0;
  let oracleSet = 0;
  let random = 0;
  let randomSet = 0;
  const pairwiseCalls = { made: 0, allPairs: 0, differingPairs: 0 };
  const chosen = (outcome: PoolQuestionOutcome, selector: string) => {
    const choice = outcome.selections[selector]?.choice;
    return choice === undefined ? undefined : outcome.candidates[choice];
  };
  const selectorTotals = new Map<
    string,
    {
      correct: number;
      setCorrect: number;
      calls: number;
      input: number;
      output: number;
      failures: number;
      confidence: number;
      answered: number;
    }
  >();
  const ran = [
    "self-consistency",
    ...modelSelectorNames.filter((name) => scored.some((outcome) => outcome.selections[name] !== undefined)),
  ];
  for (const outcome of scored) {
    for (const candidate of outcome.candidates) {
      const figure = sources.get(candidate.source) ?? { candidates: 0, correct: 0, setCorrect: 0, errors: 0 };
      figure.candidates++;
      figure.correct += Number(candidate.correct);
      figure.setCorrect += Number(candidate.setCorrect);
      figure.errors += Number(candidate.error !== undefined);
      sources.set(candidate.source, figure);
    }
    const count = outcome.candidates.length;
    oracle += Number(outcome.candidates.some((candidate) => candidate.correct));
    oracleSet += Number(outcome.candidates.some((candidate) => candidate.setCorrect));
    random += ratio(outcome.candidates.filter((candidate) => candidate.correct).length, count);
    randomSet += ratio(outcome.candidates.filter((candidate) => candidate.setCorrect).length, count);
    pairwiseCalls.made += outcome.pairwiseCalls.made;
    pairwiseCalls.allPairs += outcome.pairwiseCalls.allPairs;
    pairwiseCalls.differingPairs += outcome.pairwiseCalls.differingPairs;
    for (const selector of ran) {
      const totals = selectorTotals.get(selector) ?? {
        correct: 0,
        setCorrect: 0,
        calls: 0,
        input: 0,
        output: 0,
        failures: 0,
        confidence: 0,
        answered: 0,
      };
      const selection = outcome.selections[selector];
      const candidate = chosen(outcome, selector);
      totals.correct += Number(candidate?.correct ?? false);
      totals.setCorrect += Number(candidate?.setCorrect ?? false);
      totals.calls += selection?.calls.length ?? 0;
      for (const call of selection?.calls ?? []) {
        totals.input += call.inputTokens;
        totals.output += call.outputTokens;
      }
      totals.failures += Number(selection?.error !== undefined);
      if (selection?.confidence !== undefined) {
        totals.confidence += selection.confidence;
        totals.answered += 1;
      }
      selectorTotals.set(selector, totals);
    }
  }
  const questions = scored.length;
  const accuracy = (selector: string): AccuracyFigure => {
    const totals = selectorTotals.get(selector);
    return { ex: ratio(totals?.correct ?? 0, questions), setEx: ratio(totals?.setCorrect ?? 0, questions) };
  };
  const modelFigure = (selector: ModelSelectorName): ModelSelectorFigure | undefined => {
    const totals = selectorTotals.get(selector);
    if (totals === undefined) return undefined;
    return {
      ...accuracy(selector),
      llmCalls: totals.calls,
      inputTokens: totals.input,
      outputTokens: totals.output,
      failures: totals.failures,
      meanConfidence: ratio(totals.confidence, totals.answered),
    };
  };
  const modelFigures = Object.fromEntries(
    modelSelectorNames.flatMap((name) => {
      const figure = modelFigure(name);
      return figure === undefined ? [] : [[name, figure]];
    }),
  );
  return {
    questions,
    sources: Object.fromEntries(
      [...sources]
        .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0))
        .map(([source, figure]) => [
          source,
          {
            ex: ratio(figure.correct, figure.candidates),
            setEx: ratio(figure.setCorrect, figure.candidates),
            candidates: figure.candidates,
            errors: figure.errors,
          },
        ]),
    ),
    selectors: {
      "self-consistency": accuracy("self-consistency"),
      oracle: { ex: ratio(oracle, questions), setEx: ratio(oracleSet, questions) },
      random: { ex: ratio(random, questions), setEx: ratio(randomSet, questions) },
      ...modelFigures,
    },
    ...(model === undefined ? {} : { model }),
    pairwiseCalls,
    goldErrors: outcomes.flatMap((outcome) =>
      outcome.goldErrors.map((error) => ({ id: outcome.id, scored: outcome.evaluated, ...error })),
    ),
  };
}
