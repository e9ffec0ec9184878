import type { Interpretation } from "@nlq/engine";
import type { EvaluationExecutor, EvaluationRun } from "./execute-for-evaluation";
import { scorePrediction } from "./gold-answer";
import {
  type GoldReading,
  matchReadings,
  type OfferedReading,
  type ReadingMatch,
  type ReadingScore,
  runUnderSpiderRule,
  scoreReadings,
  spiderCorrect,
} from "./gold-readings";

/** What an answer offered: its SQL (absent when the engine failed) and its interpretations. */
export interface OfferedAnswer {
  readonly sql?: string;
  readonly interpretations?: readonly Pick<Interpretation, "number" | "sql">[];
  readonly needsChoice?: boolean;
}

/** How one answer scored against the question's gold readings. */
export interface AnswerScore extends ReadingScore {
  /** The answer's own run (an engine failure is a failed run with the engine's message). */
  readonly run: EvaluationRun;
  /** EX under nlq's rule: the answer's result equals some reading's (`scorePrediction`). */
  readonly correct: boolean;
  /** BIRD's set equality against some reading. */
  readonly setCorrect: boolean;
  /** EX under the official Spider rule (`spider-result-rule.ts`) against some reading. */
  readonly spiderCorrect: boolean;
  /** Per gold reading, which offered readings (1: the answer's own) return it. */
  readonly readings: readonly ReadingMatch[];
  /** Interpretations the answer showed (0 when its candidates agreed). */
  readonly interpretations: number;
  readonly needsChoice: boolean;
  /** Interpretations whose SQL did not run when scored (they cannot match a reading). */
  readonly interpretationErrors: ReadonlyArray<{ readonly number: number; readonly error: string }>;
}

/**
 * Scores an answer: runs its SQL, and each interpretation other than #1 (which is the answer's own SQL), through the
 * evaluation executor, and compares them with every gold reading — EX and set EX of the answer under nlq's rule, EX
 * under the Spider rule, which readings were offered, and the reading figures (`scoreReadings`).
 */
export async function scoreAnswer(options: {
  readonly readings: readonly GoldReading[];
  readonly answer: OfferedAnswer;
  /** The engine's error when it chose no SQL. */
  readonly engineError?: string;
  readonly execute: EvaluationExecutor;
  readonly schema?: string;
}): Promise<AnswerScore> {
  const { answer, execute, schema } = options;
  const run: EvaluationRun =
    answer.sql === undefined ? { ok: false, error: options.engineError ?? "" } : await execute(answer.sql, schema);
  const offered: OfferedReading[] = [{ number: 1, run }];
  const interpretationErrors: { number: number; error: string }[] = [];
  for (const interpretation of answer.interpretations ?? []) {
    if (interpretation.number === 1) continue;
    const interpretationRun = await execute(interpretation.sql, schema);
    if (!interpretationRun.ok)
      interpretationErrors.push({ number: interpretation.number, error: interpretationRun.error });
    offered.push({ number: interpretation.number, run: interpretationRun });
  }
  let correct = false;
  let setCorrect = false;
  for (const reading of options.readings) {
    const score = scorePrediction(reading.answer, run);
    correct ||= score.correct;
    setCorrect ||= score.setCorrect;
  }
  const spiderRunOfAnswer = answer.sql === undefined ? run : await runUnderSpiderRule(answer.sql, run, execute, schema);
  const matches = matchReadings(options.readings, offered);
  const interpretations = answer.interpretations?.length ?? 0;
  const needsChoice = answer.needsChoice === true;
  const scored = options.readings.some((reading) => reading.answer.alternatives.length > 0);
  return {
    run,
    correct,
    setCorrect,
    spiderCorrect: spiderCorrect(options.readings, spiderRunOfAnswer),
    readings: matches,
    interpretations,
    needsChoice,
    interpretationErrors,
    ...scoreReadings(matches, { interpretations, needsChoice }, scored),
  };
}
