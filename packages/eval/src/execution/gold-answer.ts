import { type ComparableResult, compareResults, ordersAtTopLevel } from "@nlq/engine";
import type { EvaluationExecutor, EvaluationRun } from "./execute-for-evaluation";
import { expandGoldAlternatives } from "./gold-alternatives";

/** One gold alternative that ran: its SQL, whether it orders at the top level, and its result. */
export interface GoldAlternative {
  readonly sql: string;
  readonly ordered: boolean;
  readonly result: ComparableResult;
}

/** A gold alternative that failed: reported, never hidden. */
export interface GoldError {
  readonly sql: string;
  readonly error: string;
}

/** The executed gold of one question: the alternatives that ran and the ones that failed. */
export interface GoldAnswer {
  readonly alternatives: readonly GoldAlternative[];
  readonly errors: readonly GoldError[];
}

/**
 * Expands the gold (defog's `{a,b}` and `;` notation, `expandGoldAlternatives`) and runs every alternative.
 * A `goldError` (the gold could not be translated) is reported as the gold's error without running anything.
 * Needs `loadSqlParser()` to have settled.
 */
export async function executeGold(
  gold: string,
  schema: string | undefined,
  execute: EvaluationExecutor,
  goldError?: string,
): Promise<GoldAnswer> {
  if (goldError !== undefined) return { alternatives: [], errors: [{ sql: gold, error: goldError }] };
  const alternatives: GoldAlternative[] = [];
  const errors: GoldError[] = [];
  for (const sql of expandGoldAlternatives(gold)) {
    const run = await execute(sql, schema);
    if (run.ok) alternatives.push({ sql, ordered: ordersAtTopLevel(sql), result: run.result });
    else errors.push({ sql, error: run.error });
  }
  return { alternatives, errors };
}

/** Whether a prediction is correct: its run matches any gold alternative (EX), or any as a set (BIRD-style). */
export interface PredictionScore {
  readonly correct: boolean;
  readonly setCorrect: boolean;
}

/**
 * Scores one predicted run against the gold: a failed prediction is wrong; otherwise it is correct when its result
 * equals a gold alternative's (order compared when that alternative orders at its top level).
 */
export function scorePrediction(gold: GoldAnswer, run: EvaluationRun): PredictionScore {
  if (!run.ok) return { correct: false, setCorrect: false };
  let correct = false;
  let setCorrect = false;
  for (const alternative of gold.alternatives) {
    const comparison = compareResults(alternative.result, run.result, { ordered: alternative.ordered });
    correct ||= comparison.equal;
    setCorrect ||= comparison.setEqual;
    if (correct) break;
  }
  if (correct) setCorrect = true;
  return { correct, setCorrect };
}
