import {
  type Answer,
  type AnswerQuestionOptions,
  answerWithInterpretation,
  CancelledError,
  checkQuestionLength,
  type NlqError,
  type QueryExecutor,
  type QueryLog,
  type TransactionStatus,
} from "@nlq/engine";
import {
  encodeErrorResponse,
  encodeNoticeResponse,
  encodeReadyForQuery,
  type ReadyStatus,
  type WireNotice,
} from "../protocol/backend-messages";
import type { QuestionDetection } from "../question/detect-question";
import type { QuestionMarker } from "../question/question-marker";
import type { ProxyLogger } from "../server/proxy-logger";
import { encodeAnswer } from "./answer-messages";
import type { ConnectionConversation } from "./connection-conversation";
import { checkQuestionBatch, encodeExtendedAnswer } from "./extended-answer";
import { NoAnswerToPickError } from "./pick-errors";
import type { PickedAnswer, PickOptions } from "./pick-options";
import { describeProgress } from "./progress-notice";
import type { ProxySettings } from "./proxy-connection-options";
import type { FormattedRows } from "./result-formats";
import { toWireError } from "./wire-error";

/** A question, or a malformed one to report. */
export type AskedQuestion =
  | Exclude<QuestionDetection, { kind: "sql" } | { kind: "statements" }>
  /** Refused before it was read (a Query too large for the question it holds): answered with `error`. */
  | { readonly kind: "refused"; readonly error: NlqError };

/** What the client gets: the answer, or one wire error. */
export type QuestionOutcome =
  /** `rows`: an Execute's rows in the formats its Bind asked for, when they are not the answer's own text rows. */
  | {
      readonly kind: "answer";
      readonly answer: Answer;
      readonly rows?: FormattedRows;
      /** Sent before the answer's own NOTICEs (a pick's confirmation). Default none. */
      readonly notices?: readonly WireNotice[];
    }
  | { readonly kind: "error"; readonly error: WireNotice };

export interface RespondToQuestionOptions {
  readonly detection: AskedQuestion;
  /** The extended-protocol batch (Parse … Sync) that carried the question; absent for a simple Query. */
  readonly batch?: readonly Buffer[];
  /** The prepared statement the batch is about (default the unnamed statement). */
  readonly statement?: string;
  /** The client's own upstream session. */
  readonly session: QueryExecutor;
  /** The session's status from its last ReadyForQuery. */
  readonly readyStatus: ReadyStatus;
  readonly abortSignal: AbortSignal;
  readonly answerQuestion: (options: AnswerQuestionOptions) => Promise<Answer>;
  readonly settings: ProxySettings;
  /** Default none. */
  readonly queryLog?: QueryLog;
  readonly logger: ProxyLogger;
  /** Receives progress lines while answering; default none (no progress NOTICEs). */
  readonly onProgress?: (line: string) => void;
  /**
   * The connection's earlier questions and last answer: a question follows the earlier ones (unless asked fresh) and is
   * remembered; a pick runs from the last answer. Default none: every question stands alone and a pick finds nothing.
   */
  readonly conversation?: ConnectionConversation;
  /** How a pick is spelled with the connection's marker, for the error of a pick with nothing to pick from. */
  readonly pickExample?: string;
  /**
   * Runs a picked interpretation (the server's audited wrapper, which also keeps a `remember` pick); default
   * `answerWithInterpretation`, which keeps nothing.
   */
  readonly answerPick?: (options: PickOptions) => Promise<PickedAnswer>;
}

export const TRANSACTION_STATUS: Record<ReadyStatus, TransactionStatus> = {
  I: "idle",
  T: "in-transaction",
  E: "failed",
};

/**
 * Runs `answerQuestion` for a detected question on the client's session and turns every failure into
 * a wire error: `NlqError`s keep their SQLSTATE and message, anything else becomes a generic `XX000`
 * (logged), and an aborted question is reported as 57014. A question over `settings.maxQuestionLength` is refused
 * with 54000 before `answerQuestion` runs. Never throws.
 */
export async function respondToQuestion(options: RespondToQuestionOptions): Promise<QuestionOutcome> {
  const { detection, abortSignal, logger } = options;
  try {
    if (detection.kind === "invalid" || detection.kind === "refused") throw detection.error;
    if (options.batch !== undefined) checkQuestionBatch(options.batch, options.statement ?? "");
    if (detection.kind === "pick") return await respondToPick(detection.number, detection.remember === true, options);
    const { conversation } = options;
    if (detection.fresh === true) conversation?.startAfresh();
    const previousTurns = conversation?.previousTurns ?? [];
    // Before the injected answerQuestion, which may load the catalog index first.
    checkQuestionLength(detection.question, options.settings.maxQuestionLength);
    const onProgress = options.onProgress;
    const answer = await options.answerQuestion({
      question: detection.question,
      ...(previousTurns.length === 0 ? {} : { previousTurns: [...previousTurns] }),
      session: options.session,
      transactionStatus: TRANSACTION_STATUS[options.readyStatus],
      settings: options.settings,
      ...(options.queryLog === undefined ? {} : { queryLog: options.queryLog }),
      abortSignal,
      origin: "proxy",
      ...(onProgress === undefined
        ? {}
        : {
            onEvent: (event) => {
              const line = describeProgress(event);
              if (line !== undefined) onProgress(line);
            },
          }),
    });
    if (abortSignal.aborted) throw new CancelledError();
    conversation?.answered(answer);
    logger.info("answered a question", {
      question: detection.question,
      sql: answer.sql,
      rows: answer.result.rows.length,
      model: answer.model.id,
      elapsedMilliseconds: answer.elapsedMilliseconds,
    });
    return { kind: "answer", answer };
  } catch (error) {
    const reported = abortSignal.aborted && !CancelledError.isInstance(error) ? new CancelledError() : error;
    return { kind: "error", error: toWireError(reported, logger) };
  }
}

/** Without the server's wrapper a pick keeps nothing, and says so when it was asked to. */
async function answerPickAlone(options: PickOptions): Promise<PickedAnswer> {
  const answer = await answerWithInterpretation(options);
  return options.remember
    ? {
        answer,
        notices: [
          {
            severity: "WARNING",
            code: "01000",
            message: "nlq: nothing was remembered: this proxy keeps no metadata store",
          },
        ],
      }
    : { answer };
}

/**
 * Runs interpretation `number` of the connection's last answer on the session (and, for `remember`, has it confirmed);
 * throws 22023 without one.
 */
async function respondToPick(
  number: number,
  remember: boolean,
  options: RespondToQuestionOptions,
): Promise<QuestionOutcome> {
  const last = options.conversation?.lastAnswer;
  if (last === undefined) throw new NoAnswerToPickError(number, options.pickExample ?? `/* nl#${number} */;`);
  const run = options.answerPick ?? answerPickAlone;
  const { answer, notices } = await run({
    question: last.question,
    answer: last,
    number,
    session: options.session,
    transactionStatus: TRANSACTION_STATUS[options.readyStatus],
    settings: options.settings,
    abortSignal: options.abortSignal,
    ...(remember ? { remember } : {}),
  });
  if (options.abortSignal.aborted) throw new CancelledError();
  options.conversation?.picked(answer);
  options.logger.info("ran a picked interpretation", { question: last.question, number, sql: answer.sql, remember });
  return { kind: "answer", answer, ...(notices && notices.length > 0 ? { notices } : {}) };
}

/**
 * The backend messages for an outcome, ending with ReadyForQuery in `status`; `marker` spells the pick in the NOTICEs
 * that list an answer's interpretations (default `nl`).
 */
export function encodeQuestionOutcome(
  outcome: QuestionOutcome,
  batch: readonly Buffer[] | undefined,
  status: ReadyStatus,
  marker?: QuestionMarker,
): Buffer[] {
  if (outcome.kind === "error") return [encodeErrorResponse(outcome.error), encodeReadyForQuery(status)];
  const notices = (outcome.notices ?? []).map(encodeNoticeResponse);
  return [
    ...notices,
    ...(batch === undefined
      ? encodeAnswer(outcome.answer, status, marker)
      : encodeExtendedAnswer(batch, outcome.answer, status, outcome.rows, marker)),
  ];
}
