import { createQuestionAnswerer, type QuestionAnswerer } from "@nlq/adapters";
import {
  type AnswerQuestionOptions,
  alwaysQuoteIdentifier,
  type LlmCallRecord,
  loadSqlParser,
  NlqError,
  type QueryExecutor,
  resolveStepModel,
  type SelectionSummary,
  type Settings,
  type VerifiedExample,
} from "@nlq/engine";
import type { EvaluationExecutor } from "./execute-for-evaluation";
import type { GoldError } from "./gold-answer";
import { executeGoldReadings, type ReadingMatch } from "./gold-readings";
import { type GoldQuestion, goldReadingsOf } from "./question-set";
import { type OfferedAnswer, scoreAnswer } from "./score-answer";

/** One question answered by the engine and scored. */
export interface QuestionOutcome {
  readonly id: string;
  readonly category: string;
  /** False when no gold alternative of any reading ran (reported, not scored). */
  readonly evaluated: boolean;
  readonly goldErrors: readonly GoldError[];
  /** The SQL the engine chose (absent when it failed). */
  readonly sql?: string;
  /** EX under nlq's rule (column order counts): the answer's result equals some gold reading's. */
  readonly correct: boolean;
  readonly setCorrect: boolean;
  /** EX under the official Spider rule (test-suite evaluation: a permutation of columns is the same result). */
  readonly spiderCorrect: boolean;
  /** Gold readings the question has (1 for a plain question; AmbiQT's have 2). */
  readonly goldReadings: number;
  /** Per gold reading, which of the answer's readings (1: its own result; 2…: its other interpretations) return it. */
  readonly readings: readonly ReadingMatch[];
  /** Several readings, all of which ran: every one was offered / at least one was. */
  readonly bothFound?: boolean;
  readonly eitherFound?: boolean;
  /** One reading: the answer asked (`needsChoice`) or showed more than one interpretation. */
  readonly falseAlarm?: boolean;
  /** Interpretations the answer showed (0 when its candidates agreed or it failed). */
  readonly interpretations: number;
  readonly needsChoice: boolean;
  /** Interpretations whose SQL did not run when scored. */
  readonly interpretationErrors: ReadonlyArray<{ readonly number: number; readonly error: string }>;
  /** Why the engine or its SQL failed; counts as wrong. */
  readonly error?: string;
  /**
   * Where it failed: `engine` — `answerQuestion` threw (`errorName` and `errorCode` say which typed error), no SQL was
   * chosen; `execution` — the chosen SQL did not run when scored. Absent when nothing failed.
   */
  readonly failedIn?: "engine" | "execution";
  /** The engine error's class (`ModelCallError`, `UnanswerableQuestionError`, …) and SQLSTATE, when `failedIn` is `engine`. */
  readonly errorName?: string;
  readonly errorCode?: string;
  /** How the engine chose its SQL (selector, candidates, clusters, basis), when it answered. */
  readonly selection?: SelectionSummary;
  /** The answer's confidence, when it gave one. */
  readonly confidence?: number;
  readonly calls: readonly LlmCallRecord[];
  readonly elapsedMilliseconds: number;
}

/** Where one question is asked and scored. */
export interface QuestionTarget {
  readonly session: QueryExecutor;
  readonly execute: EvaluationExecutor;
  readonly answerer?: Pick<QuestionAnswerer, "answer">;
}

export interface EvaluateQuestionsOptions {
  readonly questions: readonly GoldQuestion[];
  /** The session the engine answers on (its search_path is set to each question's schema while it answers). */
  readonly session: QueryExecutor;
  /** Runs gold and chosen SQL (`createEvaluationExecutor` on the same or another session). */
  readonly execute: EvaluationExecutor;
  readonly settings: Settings;
  /** Model of each step; default from `settings`. Tests pass mock models. */
  readonly resolveModel?: AnswerQuestionOptions["resolveModel"];
  /**
   * Verified question–SQL pairs passed to the engine with a question (`AnswerQuestionOptions.verifiedExamples`), in
   * place of those the answerer's metadata store holds for the role (an empty list: none at all). Default: the
   * answerer's (none without a store).
   */
  readonly verifiedExamples?: (question: GoldQuestion) => readonly VerifiedExample[];
  /** Called after each question (progress). */
  readonly onQuestion?: (outcome: QuestionOutcome, index: number) => void;
  /**
   * "Ask a question" as every surface composes it (`createQuestionAnswerer`; the CLI gives it the metadata store and
   * the database URL, so each question takes the catalog index when there is one, as `nlq ask` does), called with
   * `search_path` already set to the question's schema. Default: `createQuestionAnswerer({})` (live introspection,
   * values from the live lookup).
   */
  readonly answerer?: Pick<QuestionAnswerer, "answer">;
  /**
   * Where a question is asked instead of `session`, `execute` and `answerer` (the CLI: a connection to the question's
   * `database`); undefined for a question asked on those. Default: those three for every question.
   */
  readonly targetFor?: (question: GoldQuestion) => Promise<QuestionTarget | undefined>;
}

/** The model that generates SQL, as the report names it (`scripted` when it replays recorded answers). */
export function generationModel(options: Pick<EvaluateQuestionsOptions, "settings" | "resolveModel">): {
  readonly id: string;
  readonly scripted: boolean;
} {
  const resolved = (options.resolveModel ?? ((step) => resolveStepModel(options.settings, step)))("generate-candidate");
  return { id: resolved.id, scripted: resolved.scripted };
}

/**
 * Answers each question with the engine (`answerer`, the configured preset and model) and scores the answer against
 * every gold reading by execution: the chosen SQL (EX under nlq's and the Spider rule) and each interpretation the
 * answer showed (which readings were offered). An engine error counts as wrong; LLM calls are counted from the
 * engine's `llm-call-end` events, so a failed question's calls are counted too.
 */
export async function evaluateQuestions(options: EvaluateQuestionsOptions): Promise<QuestionOutcome[]> {
  await loadSqlParser();
  const defaultAnswerer = options.answerer ?? createQuestionAnswerer({});
  const outcomes: QuestionOutcome[] = [];
  for (const [index, question] of options.questions.entries()) {
    const target = (await options.targetFor?.(question)) ?? options;
    const { session, execute } = target;
    const answerer = target.answerer ?? defaultAnswerer;
    const readings = await executeGoldReadings(goldReadingsOf(question), question.schema, execute, question.goldError);
    const calls: LlmCallRecord[] = [];
    const started = performance.now();
    let offered: OfferedAnswer = {};
    let error: string | undefined;
    let engineError: { name: string; code?: string } | undefined;
    let chosen: Pick<QuestionOutcome, "selection" | "confidence"> = {};
    try {
      if (question.schema !== undefined)
        await session.query({ sql: `SET search_path TO ${alwaysQuoteIdentifier(question.schema)}` });
      // Given: exactly these (none included: the store's are then not looked up). Not given: the composition's.
      const examples = options.verifiedExamples?.(question);
      const answer = await answerer.answer({
        question: question.question,
        ...(examples === undefined ? {} : { verifiedExamples: examples }),
        hint: question.hint,
        session,
        // Execution accuracy scores the SQL: the plain-language sentence would be one more call per question for nothing.
        settings: { ...options.settings, summarizeAnswer: false },
        origin: "eval",
        resolveModel: options.resolveModel,
        onEvent: (event) => {
          if (event.type === "llm-call-end") calls.push(event.call);
        },
      });
      offered = {
        sql: answer.sql,
        ...(answer.interpretations === undefined ? {} : { interpretations: answer.interpretations }),
        ...(answer.needsChoice === undefined ? {} : { needsChoice: answer.needsChoice }),
      };
      chosen = {
        selection: answer.selection,
        ...(answer.confidence === undefined ? {} : { confidence: answer.confidence }),
      };
    } catch (caught) {
      error = caught instanceof Error ? caught.message : String(caught);
      engineError = {
        name: caught instanceof Error ? caught.name : typeof caught,
        ...(NlqError.isInstance(caught) ? { code: caught.code } : {}),
      };
    } finally {
      if (question.schema !== undefined) await session.query({ sql: "RESET search_path" });
    }
    const elapsedMilliseconds = Math.round(performance.now() - started);
    const { run, ...score } = await scoreAnswer({
      readings,
      answer: offered,
      ...(error === undefined ? {} : { engineError: error }),
      execute,
      ...(question.schema === undefined ? {} : { schema: question.schema }),
    });
    const outcome: QuestionOutcome = {
      id: question.id,
      category: question.category,
      evaluated: readings.some((reading) => reading.answer.alternatives.length > 0),
      goldErrors: readings.flatMap((reading) => reading.answer.errors),
      ...(offered.sql === undefined ? {} : { sql: offered.sql }),
      goldReadings: readings.length,
      ...score,
      ...(run.ok ? {} : { error: run.error }),
      ...(engineError
        ? {
            failedIn: "engine" as const,
            errorName: engineError.name,
            ...(engineError.code === undefined ? {} : { errorCode: engineError.code }),
          }
        : run.ok
          ? {}
          : { failedIn: "execution" as const }),
      ...chosen,
      calls,
      elapsedMilliseconds,
    };
    outcomes.push(outcome);
    options.onQuestion?.(outcome, index);
  }
  return outcomes;
}
