import {
  type CandidateCluster,
  clusterCandidates,
  type ExecutedCandidate,
  largestCluster,
  loadSqlParser,
  normalizedSqlKey,
  type PairwiseCallCount,
  pairwiseCallCount,
} from "@nlq/engine";
import type { PoolQuestion } from "./candidate-pool";
import type { EvaluationExecutor, EvaluationRun } from "./execute-for-evaluation";
import { executeGold, type GoldError, scorePrediction } from "./gold-answer";
import { type PoolModelSelection, runModelSelector, type SelectorChoice } from "./pool-selection";

/** One candidate after execution and scoring. */
export interface CandidateOutcome {
  readonly source: string;
  readonly sql: string;
  readonly correct: boolean;
  readonly setCorrect: boolean;
  /** The candidate's error; an error counts as wrong. */
  readonly error?: string;
}

/** One question of a pool after execution: its candidates and what each selector chose. */
export interface PoolQuestionOutcome {
  readonly id: string;
  /** False when no gold alternative ran: the question is reported and left out of every figure. */
  readonly evaluated: boolean;
  readonly goldErrors: readonly GoldError[];
  readonly candidates: readonly CandidateOutcome[];
  /** Result clusters among the candidates that ran. */
  readonly clusters: number;
  /** Model calls pairwise selection makes over these clusters, and what all pairs of candidates would take. */
  readonly pairwiseCalls: PairwiseCallCount;
  /** What each selector chose: `self-consistency` always, `pairwise` and `unit-tests` when a model is configured. */
  readonly selections: Readonly<Record<string, SelectorChoice>>;
}

export interface EvaluateCandidatePoolOptions {
  readonly questions: readonly PoolQuestion[];
  /** Runs one statement (`createEvaluationExecutor`). */
  readonly execute: EvaluationExecutor;
  /** The model selectors to run too (pairwise, unit tests). Default: none. */
  readonly modelSelection?: PoolModelSelection;
  /**
   * Called with each scored question's clusters and whether each representative matches the gold (selection-agent
   * training data). Default: nothing.
   */
  readonly onClusters?: (
    question: PoolQuestion,
    clusters: readonly CandidateCluster[],
    clusterCorrect: readonly boolean[],
  ) => Promise<void> | void;
  /** Called after each question (progress). Default: nothing. */
  readonly onQuestion?: (outcome: PoolQuestionOutcome, index: number) => void;
}

/** A successful evaluation run as the engine's selectors see an executed candidate's result. */
function cappedResult(run: Extract<EvaluationRun, { ok: true }>): ExecutedCandidate["result"] {
  return {
    result: {
      fields: run.result.columnTypes.map((dataTypeId, position) => ({
        name: run.columnNames[position] ?? `column${position + 1}`,
        dataTypeId,
        dataTypeSize: -1,
        dataTypeModifier: -1,
        tableId: 0,
        columnId: 0,
      })),
      rows: run.result.rows,
      command: `SELECT ${run.result.rows.length}`,
    },
    truncated: false,
  };
}

/**
 * Executes the gold and the candidates of each question and scores every candidate. Candidates whose SQL parses to
 * the same statement (`normalizedSqlKey`) run once. The candidates that ran are clustered by the engine
 * (`clusterCandidates`) and chosen among by its selectors: self-consistency always; the pairwise agent and the unit
 * tester when `modelSelection` asks for them. Questions run one after another on the one session.
 */
export async function evaluateCandidatePool(options: EvaluateCandidatePoolOptions): Promise<PoolQuestionOutcome[]> {
  await loadSqlParser();
  const outcomes: PoolQuestionOutcome[] = [];
  for (const [index, question] of options.questions.entries()) {
    const gold = await executeGold(question.gold, question.schema, options.execute, question.goldError);
    const runs = new Map<string, EvaluationRun>();
    const candidates = [];
    for (const candidate of question.candidates) {
      const key = normalizedSqlKey(candidate.sql);
      let run = runs.get(key);
      if (run === undefined) {
        run = await options.execute(candidate.sql, question.schema);
        runs.set(key, run);
      }
      candidates.push({ candidate, run });
    }
    const executed: ExecutedCandidate[] = candidates.flatMap(({ candidate, run }, position) =>
      run.ok ? [{ index: position, generator: candidate.source, sql: candidate.sql, result: cappedResult(run) }] : [],
    );
    const clusters = await clusterCandidates(executed);
    const largest = clusters.length === 0 ? undefined : largestCluster(clusters);
    const selections: Record<string, SelectorChoice> = {
      "self-consistency": {
        ...(largest === undefined
          ? {}
          : { choice: largest.representative.index, confidence: largest.members.length / executed.length }),
        calls: [],
      },
    };
    for (const name of options.modelSelection?.selectors ?? []) {
      selections[name] = await runModelSelector(name, question, executed, clusters, options.modelSelection!);
    }
    const scores = candidates.map(({ run }) => scorePrediction(gold, run));
    if (options.onClusters && gold.alternatives.length > 0) {
      await options.onClusters(
        question,
        clusters,
        clusters.map((cluster) => scores[cluster.representative.index]!.correct),
      );
    }
    const outcome: PoolQuestionOutcome = {
      id: question.id,
      evaluated: gold.alternatives.length > 0,
      goldErrors: gold.errors,
      candidates: candidates.map(({ candidate, run }, position) => ({
        source: candidate.source,
        sql: candidate.sql,
        ...scores[position]!,
        ...(run.ok ? {} : { error: run.error }),
      })),
      clusters: clusters.length,
      pairwiseCalls: pairwiseCallCount(executed, clusters),
      selections,
    };
    outcomes.push(outcome);
    options.onQuestion?.(outcome, index);
  }
  return outcomes;
}
