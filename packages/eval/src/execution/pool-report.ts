import type { PoolQuestionOutcome } from "./evaluate-candidate-pool";
import type { GoldError } from "./gold-answer";

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

/** The `--json` report of `nlq eval --candidates`. */
export interface PoolReport {
  /** Questions scored (those whose gold ran). */
  readonly questions: number;
  readonly sources: Readonly<Record<string, SourceFigure>>;
  readonly selectors: {
    readonly "self-consistency": AccuracyFigure;
    readonly oracle: AccuracyFigure;
    readonly random: AccuracyFigure;
  };
  /** Gold alternatives that failed, per question (a question none of whose alternatives ran is not scored). */
  readonly goldErrors: ReadonlyArray<GoldError & { readonly id: string; readonly scored: boolean }>;
}

const ratio = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);

/**
 * Summarises scored questions: EX per source, sources sorted by name (correct candidates of the source / its candidates); oracle (a question
 * is correct when any candidate is); random choice as its exact expectation (mean over questions of correct / all
 * candidates, errors included; 0 for a question without candidates); self-consistency (`selfConsistencyChoice`).
 */
export function summarizePool(outcomes: readonly PoolQuestionOutcome[]): PoolReport {
  const scored = outcomes.filter((outcome) => outcome.evaluated);
  const sources = new Map<string, { candidates: number; correct: number; setCorrect: number; errors: number }>();
  let oracle = 0;
  let oracleSet = 0;
  let random = 0;
  let randomSet = 0;
  let consistency = 0;
  let consistencySet = 0;
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
    const chosen = outcome.selfConsistency === undefined ? undefined : outcome.candidates[outcome.selfConsistency];
    consistency += Number(chosen?.correct ?? false);
    consistencySet += Number(chosen?.setCorrect ?? false);
  }
  const questions = scored.length;
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
      "self-consistency": { ex: ratio(consistency, questions), setEx: ratio(consistencySet, questions) },
      oracle: { ex: ratio(oracle, questions), setEx: ratio(oracleSet, questions) },
      random: { ex: ratio(random, questions), setEx: ratio(randomSet, questions) },
    },
    goldErrors: outcomes.flatMap((outcome) =>
      outcome.goldErrors.map((error) => ({ id: outcome.id, scored: outcome.evaluated, ...error })),
    ),
  };
}
