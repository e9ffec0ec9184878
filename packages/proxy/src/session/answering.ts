import { CancelledError } from "@nlq/engine";
import { serialize } from "pg-protocol";
import {
  encodeErrorResponse,
  encodeNoticeResponse,
  encodeReadyForQuery,
  type WireNotice,
} from "../protocol/backend-messages";
import { MessageType } from "../protocol/frontend-messages";
import { type BatchPart, planStatementBatch } from "../question/plan-statement-batch";
import { AnswerInProgress } from "./answer-in-progress";
import { encodeAnswerResult } from "./answer-messages";
import type { ConnectionContext } from "./connection-context";
import { type AnsweringState, answeringState, isClosed, READY } from "./connection-state";
import { ConnectionStep } from "./connection-step";
import type { QuestionBatch } from "./question-batch";
import { type AskedQuestion, encodeQuestionOutcome, type QuestionOutcome } from "./respond-to-question";
import { StatementsInFlight } from "./statements-in-flight";
import { toWireError } from "./wire-error";

/**
 * **Answering**: a question runs on the client's own upstream session. Client input is queued meanwhile (bounded,
 * `ConnectionIo.enqueue`); the upstream's replies go to the question's statements (`upstream-replies.ts`), except
 * NotificationResponse and ParameterStatus, which pass through. It waits until the upstream owes no ReadyForQuery, asks
 * `answerQuestion` (or re-runs a prepared question's SQL), writes the rows back as RowDescription/DataRow (or the
 * extended-protocol replies, or an ErrorResponse), then → Ready, handling the input queued meanwhile (which may start
 * the next question). A simple Query mixing questions and statements runs them in order: each run of ordinary
 * statements goes upstream as one Query (`StatementsInFlight`), each question is answered in place. A prepared
 * question is generated once, at its Parse batch: a later Bind, Describe or Execute of the same statement re-runs the
 * SQL generated then (`PreparedQuestions`, `rerunPreparedQuestion`). Limits: a question must be alone in its batch,
 * without parameters, with text results.
 */
export class Answering {
  readonly #context: ConnectionContext;

  constructor(context: ConnectionContext) {
    this.#context = context;
  }

  /** Answers a question in the background; anything it throws closes this connection (FATAL), never the process. */
  start(detection: AskedQuestion, batch?: QuestionBatch): void {
    this.#answer(detection, batch).catch((error: unknown) => this.#context.fail(error));
  }

  /** Answers a simple Query holding questions among other statements in the background, as `start` does. */
  startStatements(text: string): void {
    this.#answerStatements(text).catch((error: unknown) => this.#context.fail(error));
  }

  get #closed(): boolean {
    return isClosed(this.#context.state);
  }

  /**
   * Answers a question (simple Query, or an extended-protocol `batch` ending with Sync). A batch with the question's
   * Parse generates (once); a later batch of the same prepared statement re-runs the SQL generated then.
   */
  async #answer(detection: AskedQuestion, batch: QuestionBatch | undefined): Promise<void> {
    const answering = answeringState();
    this.#context.state = answering;
    await this.#upstreamIdle();
    if (this.#closed) return;
    const { router, session, io } = this.#context;
    const messages = batch?.messages;
    const outcome = await this.#respond(answering, detection, batch);
    if (outcome === undefined) return;
    if (messages !== undefined) {
      router.statements.settle(messages, outcome.kind === "answer" ? outcome.answer : undefined);
    }
    io.writeClientMessages(encodeQuestionOutcome(outcome, messages, session.readyStatus, router.marker));
    this.#finish();
  }

  /**
   * Answers a simple Query that holds questions among other statements, in order, as one multi-statement query:
   * each run of ordinary statements goes upstream untouched as one simple Query (its replies pass through, its
   * ReadyForQuery is held back), each question is answered in place, and the first error ends the batch; one
   * ReadyForQuery ends it all. Unlike one multi-statement query, the runs and questions are separate implicit
   * transactions (an explicit BEGIN … COMMIT around them still holds).
   */
  async #answerStatements(text: string): Promise<void> {
    const answering = answeringState();
    this.#context.state = answering;
    await this.#upstreamIdle();
    if (this.#closed) return;
    const { router, session, io, options } = this.#context;
    let parts: BatchPart[] = [];
    let error: WireNotice | undefined;
    try {
      parts = await planStatementBatch(text, router.marker);
    } catch (caught) {
      error = toWireError(caught, options.logger);
    }
    for (const part of parts) {
      if (part.kind === "sql") {
        const succeeded = await this.#passStatements(answering, part.text);
        if (this.#closed) return;
        if (!succeeded) break;
        continue;
      }
      const outcome = await this.#respond(answering, { kind: "question", question: part.question }, undefined);
      if (outcome === undefined) return;
      if (outcome.kind === "error") {
        error = outcome.error;
        break;
      }
      io.writeClientMessages(encodeAnswerResult(outcome.answer, router.marker));
    }
    if (this.#closed) return;
    io.writeClientMessages([
      ...(error === undefined ? [] : [encodeErrorResponse(error)]),
      encodeReadyForQuery(session.readyStatus),
    ]);
    this.#finish();
  }

  /** Sends ordinary statements upstream as one simple Query; resolves at its ReadyForQuery (false after an error). */
  #passStatements(answering: AnsweringState, text: string): Promise<boolean> {
    return new Promise((resolve) => {
      answering.statementsInFlight = new StatementsInFlight(resolve);
      this.#context.pendingReady.expect();
      this.#context.io.writeUpstream(serialize.query(text));
    });
  }

  /** Runs one question on the upstream session; undefined when the connection closed meanwhile. */
  async #respond(
    answering: AnsweringState,
    detection: AskedQuestion,
    batch: QuestionBatch | undefined,
  ): Promise<QuestionOutcome | undefined> {
    const { options, io, router, pendingReady, session } = this.#context;
    const answer = new AnswerInProgress({
      write: (bytes) => {
        pendingReady.expect();
        io.writeUpstream(bytes);
      },
      requestCancel: () => {
        // Closing cancels what still runs itself (leaveNothingBehind): one CancelRequest, not two.
        if (this.#closed) return;
        if (session.backendKey !== undefined) options.cancelUpstream(session.backendKey);
      },
    });
    answering.answer = answer;
    if (this.#context.ending.clientEnded) {
      answer.abort(new CancelledError("question abandoned: the client ended its input"));
    }
    const messages = batch?.messages;
    const generated =
      batch === undefined || messages?.[0]?.[0] === MessageType.parse
        ? undefined
        : router.statements.get(batch.statement)?.answer;
    const outcome = await answer.respond(
      {
        detection,
        batch: messages,
        statement: batch?.statement ?? "",
        generated,
        readyStatus: session.readyStatus,
        onProgress: options.progressNotices ? (line) => this.#sendProgress(line) : undefined,
        conversation: router.conversation,
        marker: router.marker,
      },
      options,
    );
    // The core may return while a statement it abandoned is still running: wait for its ReadyForQuery.
    await this.#upstreamIdle();
    answering.answer = undefined;
    if (this.#closed) return undefined;
    return outcome;
  }

  /** The answer is sent: → Ready, and handle the client input held meanwhile. */
  #finish(): void {
    const context = this.#context;
    context.state = READY;
    context.drainClientQueue();
    if (context.state.step === ConnectionStep.Ready) context.io.clientPauses.release("large");
    context.closeIfFinished();
    context.relayIfIdle();
  }

  #sendProgress(line: string): void {
    if (this.#closed) return;
    this.#context.io.writeClient(encodeNoticeResponse({ severity: "NOTICE", code: "00000", message: line }));
  }

  #upstreamIdle(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    return this.#context.pendingReady.whenIdle();
  }
}
