import { serialize } from "pg-protocol";
import { MessageType } from "../protocol/frontend-messages";
import type { FramedSegment } from "../protocol/message-framer";
import { readReadyStatus } from "../protocol/ready-for-query";
import type { AuthenticationExchange } from "./authentication-exchange";
import type { ConnectionContext } from "./connection-context";
import { type AnsweringState, answerOf, READY, statementsInFlightOf } from "./connection-state";
import { ConnectionStep } from "./connection-step";
import { StatementsInFlight } from "./statements-in-flight";

/** The CopyFail a COPY FROM STDIN among a split query's statements gets: the client's input is held meanwhile. */
const COPY_REFUSAL = "COPY FROM STDIN cannot share a query with a natural-language question";

/**
 * The upstream's replies, back toward the client, in every state after the upstream opened. They pass through as the
 * framer hands them back, joined again into one write per received chunk; the proxy looks only at what it must:
 * authentication requests during its own login upstream (`authentication-exchange.ts`), ReadyForQuery (the owed
 * count, the transaction status; Authenticating → Ready; a question batch's error goes just before it),
 * BackendKeyData, ErrorResponse while a batch error waits, and COPY state. While Answering, replies go to the
 * question's statements instead (`AnswerInProgress.receive`; a DataRow past the byte cap is dropped unread), or, for a
 * split query's ordinary statements, pass through until their ReadyForQuery, which ends the run instead.
 */
export class UpstreamReplies {
  readonly #context: ConnectionContext;
  readonly #authentication: AuthenticationExchange;

  constructor(context: ConnectionContext, authentication: AuthenticationExchange) {
    this.#context = context;
    this.#authentication = authentication;
  }

  /** Whether an upstream message of `type` must be framed whole (the others pass on as they stream). */
  inspects(type: number): boolean {
    const { state, router, questionBatchError } = this.#context;
    const statementsInFlight = statementsInFlightOf(state);
    return (
      answerOf(state) !== undefined ||
      (statementsInFlight !== undefined && StatementsInFlight.inspects(type)) ||
      router.copyIn.inspects(type) ||
      type === MessageType.readyForQuery ||
      type === MessageType.backendKeyData ||
      this.#authentication.inspectsUpstream(type) ||
      (type === MessageType.errorResponse && questionBatchError.pending)
    );
  }

  /** A row past the byte cap of the answer's statement is dropped as it streams, never held (the cap cancels it). */
  skips(type: number, total: number): boolean {
    return type === MessageType.dataRow && answerOf(this.#context.state)?.refusesRow(total - 1) === true;
  }

  /** Upstream bytes, as read from its socket (or handed back by the relay). */
  readonly onData = (chunk: Buffer): void => {
    const { io, upstreamFramer } = this.#context;
    // What the chunk forwards unchanged leaves as one write (`CoalescingWriter`), at the end of the batch.
    io.toClient.begin();
    try {
      upstreamFramer.push(chunk, this.#onSegment);
    } catch (error) {
      this.#context.fail(error);
    } finally {
      io.toClient.end();
    }
    this.#context.relayIfIdle();
  };

  readonly #onSegment = (segment: FramedSegment): void => {
    const context = this.#context;
    const { io, session, options, router, pendingReady, questionBatchError } = context;
    if (segment.kind === "bytes") {
      io.writeClient(segment.bytes);
      return;
    }
    const { type, message } = segment;
    if (type === MessageType.authenticationRequest && this.#authentication.answersUpstream(message)) return;
    // A COPY FROM STDIN started by an Execute reads the Syncs sent after it as part of the COPY: none is owed for them.
    pendingReady.ignore(router.noteUpstream(type));
    const state = context.state;
    if (state.step === ConnectionStep.Answering && state.statementsInFlight !== undefined) {
      this.#onPassedStatementReply(state, state.statementsInFlight, type, message);
      return;
    }
    if (type === MessageType.readyForQuery) {
      session.readyStatus = readReadyStatus(message);
      if (state.step === ConnectionStep.Authenticating) context.state = READY;
      const questionBatchErrorMessage = questionBatchError.takeBeforeReady(options.logger);
      if (questionBatchErrorMessage !== undefined) io.writeClient(questionBatchErrorMessage);
    } else if (type === MessageType.backendKeyData) {
      session.backendKey = { processId: message.readInt32BE(5), secretKey: message.readInt32BE(9) };
      options.hooks.onBackendKey(session.backendKey);
    } else if (type === MessageType.errorResponse) {
      questionBatchError.noteUpstreamError();
    }
    const answer = answerOf(state);
    if (answer !== undefined && type !== MessageType.notificationResponse && type !== MessageType.parameterStatus) {
      // While answering, everything else belongs to the pipeline's statements.
      answer.receive(message);
    } else {
      io.writeClient(message);
    }
    if (type === MessageType.readyForQuery && pendingReady.received()) {
      router.upstreamSettled();
      context.closeIfFinished();
    }
  };

  /** A reply to ordinary statements of a split query: passed through, but its ReadyForQuery ends the run instead. */
  #onPassedStatementReply(answering: AnsweringState, run: StatementsInFlight, type: number, message: Buffer): void {
    const { io, session, pendingReady, router } = this.#context;
    const reply = run.receive(type);
    if (reply === "forward") io.writeClient(message);
    if (reply === "refuse-copy") io.writeUpstream(serialize.copyFail(COPY_REFUSAL));
    if (reply !== "ready") return;
    session.readyStatus = readReadyStatus(message);
    answering.statementsInFlight = undefined;
    if (pendingReady.received()) router.upstreamSettled();
    run.finish();
  }
}
