import type { Settings } from "../config/settings";
import type { Answer } from "../contract/answer";
import type { QueryExecutor, TransactionStatus } from "../database/query-executor";
import { queryWithRowLimit, runReadOnly } from "../database/read-only-session";
import { sharedFunctionPolicyCache } from "../sql/function-policy-cache";
import { validateSql } from "../sql/validate-sql";
import { describeDifference } from "./describe-difference";
import { InterpretationNotFoundError } from "./interpretation-errors";

export interface AnswerWithInterpretationOptions {
  /** The answer whose interpretations the user picks from (e.g. the connection's or conversation's last answer). */
  readonly answer: Answer;
  /** The picked interpretation's `number` (1 is the chosen one, as surfaces show them). */
  readonly number: number;
  /** The asking user's own session: the SQL runs here, read-only, under that role — never another. */
  readonly session: QueryExecutor;
  /** The session's transaction state (default `idle`). */
  readonly transactionStatus?: TransactionStatus;
  /** Row and byte caps, statement timeout, `NLQ_ALLOWED_FUNCTIONS` and `NLQ_TRUSTED_OWNERS`, as for a question. */
  readonly settings: Pick<
    Settings,
    "rowLimit" | "resultByteLimit" | "statementTimeoutMilliseconds" | "allowedFunctions" | "trustedOwners"
  >;
  readonly abortSignal?: AbortSignal;
}

/**
 * Turns a picked interpretation into an answer: its SQL is validated again as a candidate is (one read-only statement,
 * the function policy loaded under the asking role) and runs read-only on `options.session` through the pipeline's
 * own execution path (`runReadOnly` + `queryWithRowLimit` with `NLQ_ROW_LIMIT`/`NLQ_RESULT_BYTE_LIMIT`), so the
 * role's grants and row-level security apply to the rows the user now sees. No model is called.
 *
 * The result is `options.answer` with that SQL and its rows; the selection says the user picked it
 * (`selection.selector` = `user`, confidence absent: a person chose, nothing was compared); the interpretations stay,
 * the picked one marked `chosen`; the plain-language sentence and reasoning, written about the other SQL, are dropped;
 * `needsChoice` is false. Throws `InterpretationNotFoundError` (22023) for a number the answer does not have,
 * `SqlValidationError` or PostgreSQL's `DatabaseError` (e.g. 42501 when a grant was revoked since) otherwise.
 */
export async function answerWithInterpretation(options: AnswerWithInterpretationOptions): Promise<Answer> {
  const started = performance.now();
  const interpretations = options.answer.interpretations ?? [];
  const picked = interpretations.find((interpretation) => interpretation.number === options.number);
  if (!picked || !Number.isInteger(options.number)) {
    throw new InterpretationNotFoundError(options.number, interpretations.length);
  }
  const { settings } = options;
  const { sql, capped } = await runReadOnly(
    {
      session: options.session,
      transactionStatus: options.transactionStatus ?? "idle",
      statementTimeoutMilliseconds: settings.statementTimeoutMilliseconds,
      abortSignal: options.abortSignal,
    },
    async (query) => {
      const policy = await sharedFunctionPolicyCache.load(query, settings.allowedFunctions, settings.trustedOwners);
      const validated = (await validateSql(picked.sql, policy)).sql;
      return {
        sql: validated,
        capped: await queryWithRowLimit(query, validated, settings.rowLimit, settings.resultByteLimit),
      };
    },
  );
  const {
    summary: _summary,
    explanation: _explanation,
    confidence: _confidence,
    truncatedBy: _truncatedBy,
    ...kept
  } = options.answer;
  return {
    ...kept,
    sql,
    result: capped.result,
    truncated: capped.truncated,
    ...(capped.truncatedBy === undefined ? {} : { truncatedBy: capped.truncatedBy }),
    selection: {
      ...options.answer.selection,
      selector: "user",
      basis: `picked by the user: interpretation #${picked.number} (${picked.support} of ${options.answer.selection.candidates} candidates returned it)`,
    },
    // Numbers stay as the user saw them; each difference line now compares with the picked reading.
    interpretations: interpretations.map((interpretation) => ({
      ...interpretation,
      chosen: interpretation.number === picked.number,
      difference:
        interpretation.number === picked.number ? "the picked reading" : describeDifference(interpretation, picked),
    })),
    needsChoice: false,
    choiceBasis: `interpretation #${picked.number} was picked`,
    elapsedMilliseconds: Math.round(performance.now() - started),
  };
}
