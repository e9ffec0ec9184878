import { createQuestionAnswerer, type QuestionAnswerer } from "@nlq/adapters";
import {
  type AnswerQuestionOptions,
  alwaysQuoteIdentifier,
  checkQuestionLength,
  clusterCandidates,
  createStepContext,
  type LlmCallRecord,
  type LlmResponseCache,
  loadSqlParser,
  type QueryExecutor,
  type Settings,
  writeQuestionCandidates,
} from "@nlq/engine";
import type { PoolQuestion } from "./candidate-pool";
import type { EvaluationExecutor } from "./execute-for-evaluation";
import { executeGold, type GoldError, scorePrediction } from "./gold-answer";
import type { GoldQuestion } from "./question-set";
import { type SelectorTrainingExample, selectorTrainingExamples } from "./selector-training-examples";

/** What `nlq selector-data` made of one question. */
export interface SelectorDataOutcome {
  readonly id: string;
  /** False when no gold alternative ran: nothing is labelled or written for the question. */
  readonly evaluated: boolean;
  readonly goldErrors: readonly GoldError[];
  /** Candidates written (failed ones included), and the ones that ran. */
  readonly candidates: number;
  readonly executed: number;
  /** Result clusters among the candidates that ran, and how many of them match the gold. */
  readonly clusters: number;
  readonly correctClusters: number;
  /** Pairwise training examples written for the question. */
  readonly examples: number;
  /** Why the engine stopped before writing candidates (no table readable, too long, cancelled…). */
  readonly error?: string;
  /** The question's model calls (generation, fixing, schema selection). */
  readonly calls: readonly LlmCallRecord[];
}

export interface CollectSelectorDataOptions {
  readonly questions: readonly GoldQuestion[];
  /** The session the engine writes and runs candidates on (its search_path is set to each question's schema). */
  readonly session: QueryExecutor;
  /** Runs gold and cluster representatives for labelling (`createEvaluationExecutor`, no row cap). */
  readonly execute: EvaluationExecutor;
  /** The preset (generators × samples, fixer, budgets) and models. */
  readonly settings: Settings;
  /** Model of each step; default from `settings`. Tests pass mock models. */
  readonly resolveModel?: AnswerQuestionOptions["resolveModel"];
  /** Responses of earlier identical calls of real models (the metadata store's). Default: none. */
  readonly llmCache?: LlmResponseCache;
  /**
   * "Ask a question" as every surface composes it (`createQuestionAnswerer`): its `prepare` gives each question the
   * catalog index when `nlq index` built one, and retrieval in every case, called after the question's search_path is
   * set. Default: `createQuestionAnswerer({})` (live introspection, values from the live lookup).
   */
  readonly answerer?: Pick<QuestionAnswerer, "prepare">;
  /** Seeded randomness deciding on which side each correct candidate is shown. */
  readonly random: () => number;
  /** Receives each question's examples (possibly none), in question order. */
  readonly onExamples: (examples: readonly SelectorTrainingExample[]) => Promise<void> | void;
  /** Called after each question (progress). */
  readonly onQuestion?: (outcome: SelectorDataOutcome, index: number) => void;
}

/**
 * CHASE-SQL's selection-agent training data from the engine's own candidates (§2.5): for each question with gold SQL,
 * the live path up to selection (`writeQuestionCandidates`: catalog or index, schema selection, the preset's
 * generators × samples, the fixer, execution), then the candidates that ran are clustered by result exactly as the
 * selection stage clusters them (`clusterCandidates`), each cluster's representative is run again without row cap
 * and labelled correct when it matches a gold alternative (`scorePrediction`), and every pair of a correct and an
 * incorrect cluster becomes one example (`selectorTrainingExamples`: the pairwise selector's prompt on the selected
 * schema with the question's hint, correct side at random). Questions run one after another on the one session; an
 * engine error is recorded for its question and the run goes on (a cancel too: the caller's signal is not passed).
 */
export async function collectSelectorData(options: CollectSelectorDataOptions): Promise<SelectorDataOutcome[]> {
  await loadSqlParser();
  const answerer = options.answerer ?? createQuestionAnswerer({});
  const outcomes: SelectorDataOutcome[] = [];
  for (const [index, question] of options.questions.entries()) {
    const gold = await executeGold(question.gold, question.schema, options.execute);
    const evaluated = gold.alternatives.length > 0;
    const context = createStepContext({
      question: question.question,
      hint: question.hint,
      settings: options.settings,
      ...(options.resolveModel ? { resolveModel: options.resolveModel } : {}),
      ...(options.llmCache ? { cache: options.llmCache } : {}),
    });
    const base = { id: question.id, evaluated, goldErrors: gold.errors };
    let outcome: SelectorDataOutcome;
    try {
      checkQuestionLength(question.question, options.settings.maxQuestionLength);
      if (question.schema !== undefined)
        await options.session.query({ sql: `SET search_path TO ${alwaysQuoteIdentifier(question.schema)}` });
      const prepared = await answerer.prepare({ session: options.session, settings: options.settings });
      const written = await writeQuestionCandidates({ ...prepared, context, session: options.session });
      const { generation } = written;
      const clusters = await clusterCandidates(generation.executed);
      const clusterCorrect: boolean[] = [];
      if (evaluated) {
        for (const cluster of clusters) {
          const run = await options.execute(cluster.representative.sql, question.schema);
          clusterCorrect.push(scorePrediction(gold, run).correct);
        }
      }
      const poolQuestion: PoolQuestion = {
        id: question.id,
        question: question.question,
        ...(question.schema === undefined ? {} : { schema: question.schema }),
        gold: question.gold,
        candidates: generation.records.map((record) => ({
          source: `${record.generator}#${record.sample}`,
          sql: record.sql,
        })),
      };
      const examples = evaluated
        ? selectorTrainingExamples({
            question: poolQuestion,
            clusters,
            clusterCorrect,
            catalog: written.selected,
            ...(written.context.hint === undefined ? {} : { hint: written.context.hint }),
            ...(written.context.questionContext ? { questionContext: written.context.questionContext } : {}),
            random: options.random,
          })
        : [];
      await options.onExamples(examples);
      outcome = {
        ...base,
        candidates: generation.records.length,
        executed: generation.executed.length,
        clusters: clusters.length,
        correctClusters: clusterCorrect.filter(Boolean).length,
        examples: examples.length,
        calls: [...context.calls],
      };
    } catch (error) {
      outcome = {
        ...base,
        candidates: 0,
        executed: 0,
        clusters: 0,
        correctClusters: 0,
        examples: 0,
        error: error instanceof Error ? error.message : String(error),
        calls: [...context.calls],
      };
    } finally {
      if (question.schema !== undefined) await options.session.query({ sql: "RESET search_path" });
    }
    outcomes.push(outcome);
    options.onQuestion?.(outcome, index);
  }
  return outcomes;
}
