import {
  type Answer,
  CancelledError,
  type QueryExecutor,
  queryWithRowLimit,
  type ResultField,
  runReadOnly,
} from "@nlq/engine";
import type { ReadyStatus } from "../protocol/backend-messages";
import { MessageType } from "../protocol/frontend-messages";
import type { ProxyLogger } from "../server/proxy-logger";
import { checkQuestionBatch } from "./extended-answer";
import type { ProxySettings } from "./proxy-connection-options";
import { PreparedQuestionChangedError } from "./question-errors";
import { type QuestionOutcome, TRANSACTION_STATUS } from "./respond-to-question";
import { toWireError } from "./wire-error";

export interface RerunPreparedQuestionOptions {
  /** The answer generated at the statement's Parse: its validated SQL and columns. */
  readonly generated: Answer;
  /** The batch (Bind/Describe/Execute … Sync) of the prepared statement, without a Parse. */
  readonly batch: readonly Buffer[];
  readonly statement: string;
  /** The client's own upstream session. */
  readonly session: QueryExecutor;
  readonly readyStatus: ReadyStatus;
  readonly abortSignal: AbortSignal;
  readonly settings: ProxySettings;
  readonly logger: ProxyLogger;
}

/**
 * Answers a later batch of a prepared question without asking the model again: the SQL generated and validated at
 * the statement's Parse runs again, read-only on the client's session under its role (`runReadOnly`, with the row and
 * byte caps), so each Execute returns fresh rows in the columns the Parse described, as a prepared SELECT would. A
 * batch without Execute (Bind, Describe) runs nothing. When the rows come back in other columns (the schema changed
 * since the Parse) the batch fails as PostgreSQL fails a prepared statement then (0A000). Never throws.
 */
export async function rerunPreparedQuestion(options: RerunPreparedQuestionOptions): Promise<QuestionOutcome> {
  const { generated, abortSignal, settings } = options;
  try {
    checkQuestionBatch(options.batch, options.statement);
    if (!options.batch.some((message) => message[0] === MessageType.execute)) {
      return { kind: "answer", answer: generated };
    }
    const started = performance.now();
    const capped = await runReadOnly(
      {
        session: options.session,
        transactionStatus: TRANSACTION_STATUS[options.readyStatus],
        statementTimeoutMilliseconds: settings.statementTimeoutMilliseconds,
        abortSignal,
      },
      (query) => queryWithRowLimit(query, generated.sql, settings.rowLimit, settings.resultByteLimit),
    );
    if (abortSignal.aborted) throw new CancelledError();
    if (!sameColumns(capped.result.fields, generated.result.fields)) throw new PreparedQuestionChangedError();
    const { truncatedBy: _previous, ...rest } = generated;
    const answer: Answer = {
      ...rest,
      result: capped.result,
      truncated: capped.truncated,
      ...(capped.truncatedBy === undefined ? {} : { truncatedBy: capped.truncatedBy }),
      calls: [],
      elapsedMilliseconds: Math.round(performance.now() - started),
    };
    options.logger.info("re-ran a prepared question", {
      statement: options.statement,
      sql: generated.sql,
      rows: answer.result.rows.length,
    });
    return { kind: "answer", answer };
  } catch (error) {
    const reported = abortSignal.aborted && !(error instanceof CancelledError) ? new CancelledError() : error;
    return { kind: "error", error: toWireError(reported, options.logger) };
  }
}

function sameColumns(left: readonly ResultField[], right: readonly ResultField[]): boolean {
  return (
    left.length === right.length &&
    left.every(
      (field, index) =>
        field.name === right[index]!.name &&
        field.dataTypeId === right[index]!.dataTypeId &&
        field.dataTypeModifier === right[index]!.dataTypeModifier,
    )
  );
}
