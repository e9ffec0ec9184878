import {
  type Answer,
  CancelledError,
  type QueryExecutor,
  runReadOnly,
  sharedFunctionPolicyCache,
  validateSql,
} from "@nlq/engine";
import type { ReadyStatus } from "../protocol/backend-messages";
import { readBind } from "../protocol/extended-messages";
import { MessageType } from "../protocol/frontend-messages";
import type { ProxyLogger } from "../server/proxy-logger";
import { checkQuestionBatch } from "./extended-answer";
import type { ProxySettings } from "./proxy-connection-options";
import { type QuestionOutcome, TRANSACTION_STATUS } from "./respond-to-question";
import { queryInFormats, resultFormatsOf } from "./result-formats";
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
 * the statement's Parse is validated again under the catalog as it is now (`validateSql`: a view it reads may have a
 * new body) and runs again, read-only on the client's session under its role (`runReadOnly`, with the row and
 * byte caps), so each Execute returns fresh rows in the columns the Parse described, as a prepared SELECT would, in
 * the result formats its Bind asks for (binary too: `queryInFormats`). A batch without Execute (Bind, Describe) runs
 * nothing. When the SQL now returns other columns (the schema changed since the Parse) the batch fails as PostgreSQL
 * fails a prepared statement then (0A000). Never throws.
 */
export async function rerunPreparedQuestion(options: RerunPreparedQuestionOptions): Promise<QuestionOutcome> {
  const { generated, abortSignal, settings, batch } = options;
  try {
    checkQuestionBatch(batch, options.statement, { binaryResults: true });
    const bind = batch.findLast((message) => message[0] === MessageType.bind);
    if (bind === undefined || !batch.some((message) => message[0] === MessageType.execute)) {
      return { kind: "answer", answer: generated };
    }
    const fields = generated.result.fields;
    const formats = resultFormatsOf(readBind(bind).resultFormats, fields.length);
    const started = performance.now();
    const rows = await runReadOnly(
      {
        session: options.session,
        transactionStatus: TRANSACTION_STATUS[options.readyStatus],
        statementTimeoutMilliseconds: settings.statementTimeoutMilliseconds,
        abortSignal,
      },
      async (query) => {
        // Validated again, as a pick is: the catalog may have changed since the Parse (a view's body replaced).
        const policy = await sharedFunctionPolicyCache.load(query, settings.allowedFunctions, settings.trustedOwners);
        const sql = (await validateSql(generated.sql, policy)).sql;
        return queryInFormats(query, sql, fields, formats, {
          rowLimit: settings.rowLimit,
          resultByteLimit: settings.resultByteLimit,
        });
      },
    );
    if (abortSignal.aborted) throw new CancelledError();
    const { truncatedBy: _generatedTruncation, ...rest } = generated;
    const answer: Answer = {
      ...rest,
      truncated: rows.truncated,
      ...(rows.truncatedBy === undefined ? {} : { truncatedBy: rows.truncatedBy }),
      calls: [],
      elapsedMilliseconds: Math.round(performance.now() - started),
    };
    options.logger.info("re-ran a prepared question", {
      statement: options.statement,
      sql: generated.sql,
      rows: rows.rows.length,
    });
    return { kind: "answer", answer, rows };
  } catch (error) {
    const reported = abortSignal.aborted && !CancelledError.isInstance(error) ? new CancelledError() : error;
    return { kind: "error", error: toWireError(reported, options.logger) };
  }
}
