import type { PoolQuestion } from "./candidate-pool";
import type { EvaluationExecutor, EvaluationRun } from "./execute-for-evaluation";
import { executeGold, type GoldError, scorePrediction } from "./gold-answer";
import { selfConsistencyChoice } from "./self-consistency";
import { loadOrderParser, ordersAtTopLevel } from "./top-level-order";

/** One candidate after execution and scoring. */
export interface CandidateOutcome {
  readonly source: string;
  readonly sql: string;
  readonly correct: boolean;
  readonly setCorrect: boolean;
  /** The candidate's error; an error counts as wrong. */
  readonly error?: string;
}

/** One question of a pool after execution: its candidates and what self-consistency chose. */
export interface PoolQuestionOutcome {
  readonly id: string;
  /** False when no gold alternative ran: the question is reported and left out of every figure. */
  readonly evaluated: boolean;
  readonly goldErrors: readonly GoldError[];
  readonly candidates: readonly CandidateOutcome[];
  /** Index of the candidate self-consistency chose, or undefined when none ran. */
  readonly selfConsistency?: number;
  /** Result clusters among the candidates that ran. */
  readonly clusters: number;
}

export interface EvaluateCandidatePoolOptions {
  readonly questions: readonly PoolQuestion[];
  /** Runs one statement (`createEvaluationExecutor`). */
  readonly execute: EvaluationExecutor;
  /** Called after each question (progress). Default: nothing. */
  readonly onQuestion?: (outcome: PoolQuestionOutcome, index: number) => void;
}

/**
 * Executes the gold and the candidates of each question and scores every candidate. A SQL text that occurs several
 * times in one question (after trimming) runs once. Questions run one after another on the one session.
 */
export async function evaluateCandidatePool(options: EvaluateCandidatePoolOptions): Promise<PoolQuestionOutcome[]> {
  await loadOrderParser();
  const outcomes: PoolQuestionOutcome[] = [];
  for (const [index, question] of options.questions.entries()) {
    const gold = await executeGold(question.gold, question.schema, options.execute);
    const runs = new Map<string, EvaluationRun>();
    const candidates = [];
    for (const candidate of question.candidates) {
      const key = candidate.sql.trim().replace(/(\s*;)+$/, "");
      let run = runs.get(key);
      if (run === undefined) {
        run = await options.execute(candidate.sql, question.schema);
        runs.set(key, run);
      }
      candidates.push({ candidate, run, ordered: ordersAtTopLevel(key) });
    }
    const { choice: selfConsistency, clusters } = selfConsistencyChoice(candidates);
    const outcome: PoolQuestionOutcome = {
      id: question.id,
      evaluated: gold.alternatives.length > 0,
      goldErrors: gold.errors,
      candidates: candidates.map(({ candidate, run }) => ({
        source: candidate.source,
        sql: candidate.sql,
        ...scorePrediction(gold, run),
        ...(run.ok ? {} : { error: run.error }),
      })),
      ...(selfConsistency === undefined ? {} : { selfConsistency }),
      clusters,
    };
    outcomes.push(outcome);
    options.onQuestion?.(outcome, index);
  }
  return outcomes;
}
