import type { Answer, CancelledError } from "@nlq/engine";
import type { ReadyStatus } from "../protocol/backend-messages";
import type { QuestionMarker } from "../question/question-marker";
import type { ConnectionConversation } from "./connection-conversation";
import type { ProxyConnectionOptions } from "./proxy-connection-options";
import { rerunPreparedQuestion } from "./rerun-prepared-question";
import { type AskedQuestion, type QuestionOutcome, respondToQuestion } from "./respond-to-question";
import { type UpstreamChannel, UpstreamQueryExecutor } from "./upstream-query-executor";

/** What one question needs besides the connection's options. */
export interface AnswerRequest {
  readonly detection: AskedQuestion;
  /** The extended-protocol batch (Parse … Sync) that carried the question; undefined for a simple Query. */
  readonly batch: readonly Buffer[] | undefined;
  /** The prepared statement the batch is about. */
  readonly statement: string;
  /** The answer generated at the statement's Parse: re-run its SQL instead of asking the model. */
  readonly generated: Answer | undefined;
  /** The session's status from its last ReadyForQuery. */
  readonly readyStatus: ReadyStatus;
  /** Receives progress lines; undefined sends none. */
  readonly onProgress: ((line: string) => void) | undefined;
  /** The connection's earlier questions and last answer (follow-ups and picks). */
  readonly conversation: ConnectionConversation;
  /** The connection's marker, which spells a pick in messages. */
  readonly marker: QuestionMarker;
}

/**
 * One question being answered on the client's upstream session: the executor its statements run on
 * (fed the upstream's messages meanwhile) and the signal that aborts it.
 */
export class AnswerInProgress {
  readonly #abort = new AbortController();
  readonly #executor: UpstreamQueryExecutor;

  constructor(upstream: UpstreamChannel) {
    this.#executor = new UpstreamQueryExecutor(upstream);
  }

  /** Answers the question; never throws (failures become a wire error in the outcome). */
  respond(request: AnswerRequest, options: ProxyConnectionOptions): Promise<QuestionOutcome> {
    const { batch, onProgress, generated } = request;
    if (batch !== undefined && generated !== undefined) {
      return rerunPreparedQuestion({
        generated,
        batch,
        statement: request.statement,
        session: this.#executor,
        readyStatus: request.readyStatus,
        abortSignal: this.#abort.signal,
        settings: options.settings,
        logger: options.logger,
      });
    }
    return respondToQuestion({
      detection: request.detection,
      ...(batch === undefined ? {} : { batch, statement: request.statement }),
      session: this.#executor,
      readyStatus: request.readyStatus,
      abortSignal: this.#abort.signal,
      answerQuestion: options.answerQuestion,
      settings: options.settings,
      ...(options.queryLog === undefined ? {} : { queryLog: options.queryLog }),
      logger: options.logger,
      ...(onProgress === undefined ? {} : { onProgress }),
      conversation: request.conversation,
      ...(options.answerPick === undefined ? {} : { answerPick: options.answerPick }),
      pickExample: request.marker.pickExample(request.detection.kind === "pick" ? request.detection.number : 2),
    });
  }

  /** Accounts a DataRow of `length` declared bytes at its header: true when it exceeds the byte cap (drop it unread). */
  refusesRow(length: number): boolean {
    return this.#executor.refusesRow(length);
  }

  /** Hands one whole upstream message to the statement running for the answer. */
  receive(message: Buffer): void {
    this.#executor.receive(message);
  }

  /** Aborts the answer with `reason`. */
  abort(reason: CancelledError): void {
    this.#abort.abort(reason);
  }

  /** Fails whatever statement still waits on the upstream (the connection is gone). */
  close(): void {
    this.#executor.close();
  }
}
