/** What the reading figures need of one answered question. */
export interface ReadingOutcome {
  readonly correct: boolean;
  readonly bothFound?: boolean;
  readonly eitherFound?: boolean;
  readonly falseAlarm?: boolean;
  readonly interpretations: number;
  readonly needsChoice: boolean;
}

/** How the answers showed doubt, over some questions: counts, and each count's share of `questions` (`…Rate`). */
interface DoubtFigures {
  readonly questions: number;
  /** Answers that showed more than one interpretation. */
  readonly withInterpretations: number;
  readonly withInterpretationsRate: number;
  /** Answers that asked the user to choose (`needsChoice`). */
  readonly needsChoice: number;
  readonly needsChoiceRate: number;
  /** Interpretations shown per answer, on average (0 for an answer whose candidates agreed). */
  readonly meanInterpretations: number;
}

/** Questions with several gold readings (AmbiQT), each of which ran. */
export interface SeveralReadingFigures extends DoubtFigures {
  /** Every reading was among the answer and its interpretations. */
  readonly bothFound: number;
  readonly bothFoundRate: number;
  /** At least one reading was. */
  readonly eitherFound: number;
  readonly eitherFoundRate: number;
  /** The answer's own result is one of the readings (its EX). */
  readonly firstReadingMatches: number;
  readonly firstReadingMatchesRate: number;
}

/** Scored questions with one gold reading. */
export interface SingleReadingFigures extends DoubtFigures {
  /** Answers that asked, or showed more than one interpretation, where the question had one meaning. */
  readonly falseAlarms: number;
  readonly falseAlarmRate: number;
}

export interface ReadingFigures {
  readonly several: SeveralReadingFigures;
  readonly single: SingleReadingFigures;
}

const rate = (count: number, total: number) => (total === 0 ? 0 : count / total);

function doubt(outcomes: readonly ReadingOutcome[]): DoubtFigures {
  const withInterpretations = outcomes.filter((outcome) => outcome.interpretations > 1).length;
  const needsChoice = outcomes.filter((outcome) => outcome.needsChoice).length;
  const total = outcomes.reduce((sum, outcome) => sum + outcome.interpretations, 0);
  return {
    questions: outcomes.length,
    withInterpretations,
    withInterpretationsRate: rate(withInterpretations, outcomes.length),
    needsChoice,
    needsChoiceRate: rate(needsChoice, outcomes.length),
    meanInterpretations: rate(total, outcomes.length),
  };
}

/**
 * The reading figures of some answered questions. Questions with several readings count where every reading ran
 * (`bothFound` is defined); questions with one count where it ran (`falseAlarm` is defined). Pure.
 */
export function readingFigures(outcomes: readonly ReadingOutcome[]): ReadingFigures {
  const several = outcomes.filter((outcome) => outcome.bothFound !== undefined);
  const single = outcomes.filter((outcome) => outcome.falseAlarm !== undefined);
  const count = (list: readonly ReadingOutcome[], test: (outcome: ReadingOutcome) => boolean) =>
    list.filter(test).length;
  const bothFound = count(several, (outcome) => outcome.bothFound === true);
  const eitherFound = count(several, (outcome) => outcome.eitherFound === true);
  const firstReadingMatches = count(several, (outcome) => outcome.correct);
  const falseAlarms = count(single, (outcome) => outcome.falseAlarm === true);
  return {
    several: {
      ...doubt(several),
      bothFound,
      bothFoundRate: rate(bothFound, several.length),
      eitherFound,
      eitherFoundRate: rate(eitherFound, several.length),
      firstReadingMatches,
      firstReadingMatchesRate: rate(firstReadingMatches, several.length),
    },
    single: { ...doubt(single), falseAlarms, falseAlarmRate: rate(falseAlarms, single.length) },
  };
}
