import { CancelledError } from "@nlq/engine";
import type { ReadyStatus, WireNotice } from "../protocol/backend-messages";
import { type FramedSegment, MessageFramer } from "../protocol/message-framer";
import { Answering } from "./answering";
import { AuthenticationExchange } from "./authentication-exchange";
import { ClientMessageRouter } from "./client-message-router";
import { ClientRouting } from "./client-routing";
import type { ConnectionContext } from "./connection-context";
import { type ClientSocketEvents, ConnectionIo } from "./connection-io";
import {
  answerOf,
  CLOSED,
  finishesAfterClientEnd,
  holdsClientInput,
  isClosed,
  mayCloseWhenFinished,
  needsWholeClientMessages,
  READY,
  statementsInFlightOf,
} from "./connection-state";
import { ConnectionStep } from "./connection-step";
import { SHUTTING_DOWN } from "./fatal-notices";
import { wireUpstream } from "./open-upstream";
import { PendingReady } from "./pending-ready";
import type { ProxyConnectionOptions } from "./proxy-connection-options";
import { QuestionBatchError } from "./question-batch-error";
import { LARGE_CLIENT_MESSAGE_BYTES } from "./question-errors";
import { RelayHandOver } from "./relay-hand-over";
import { StartupHandshake } from "./startup-handshake";
import { UpstreamReplies } from "./upstream-replies";
import { toWireError } from "./wire-error";

/**
 * One client connection and its upstream connection, as an explicit state machine (pg-gateway style): its state is one
 * `ConnectionState` (`connection-state.ts`), and each client segment goes to the part that owns the current step —
 * startup handshake (`startup-handshake.ts`), authentication exchange (`authentication-exchange.ts`), client routing
 * (`client-routing.ts`), answering (`answering.ts`); the upstream's replies come back through `upstream-replies.ts`;
 * Ready connections with nothing to watch go to the native relay (`relay-hand-over.ts`, the Relayed state); sockets,
 * writes and teardown are `connection-io.ts`. This file holds the machine itself: the client's bytes in, the queue of
 * client input held while a step cannot take it, the public controls (cancel, shutdown, destroy) and closing.
 *
 * Bytes pass through in both directions as the framers hand them back, joined again into one write per received chunk
 * (`CoalescingWriter`: what passes through unchanged is never split into several writes); the connection looks only at
 * startup packets, simple Query, Parse, Sync (and Bind once a prepared statement holds a question) from the client, and
 * ReadyForQuery, BackendKeyData (and ErrorResponse when it has to) from the server.
 *
 * Winding down (`ConnectionEnding`), in any step: the client shut down its sending side (its SQL still runs and the
 * results go to it, as from PostgreSQL; a question is abandoned), or the server shuts down (FATAL 57P01). The
 * connection closes once it is Ready (or AwaitingStartup) and nothing is owed or held; never while Relayed (one writer
 * per socket: the relay hands it back first).
 */
export class ProxyConnection {
  readonly #context: ConnectionContext;
  readonly #startup: StartupHandshake;
  readonly #authentication: AuthenticationExchange;
  readonly #routing: ClientRouting;
  readonly #answering: Answering;
  readonly #upstreamReplies: UpstreamReplies;
  readonly #relay: RelayHandOver;

  constructor(options: ProxyConnectionOptions) {
    const io = new ConnectionIo(options);
    const router = new ClientMessageRouter(options.marker, options.resumed?.conversation);
    const context: ConnectionContext = {
      options,
      io,
      router,
      clientFramer: new MessageFramer({
        // A resumed parked session is past its startup: the client sends ordinary messages.
        startup: options.resumed === undefined,
        inspect: (type) =>
          router.inspects(type) || needsWholeClientMessages(context.state) || io.clientQueue.length > 0,
        large: {
          limit: LARGE_CLIENT_MESSAGE_BYTES,
          decide: (type, total, head) => this.#routing.decideLarge(type, total, head),
        },
      }),
      upstreamFramer: new MessageFramer({
        inspect: (type) => this.#upstreamReplies.inspects(type),
        skip: (type, total) => this.#upstreamReplies.skips(type, total),
      }),
      pendingReady: new PendingReady(),
      questionBatchError: new QuestionBatchError(),
      session: { readyStatus: "I", backendKey: undefined },
      ending: { clientEnded: false, shuttingDown: false },
      state: { step: ConnectionStep.AwaitingStartup },
      onClientData: this.#onClientData,
      onClientEnded: () => this.#onClientEnded(),
      onUpstreamData: (chunk) => this.#upstreamReplies.onData(chunk),
      drainClientQueue: () => this.#drainClientQueue(),
      startAnswer: (detection, batch) => this.#answering.start(detection, batch),
      startAnsweringStatements: (text) => this.#answering.startStatements(text),
      relayIfIdle: () => this.#relay.relayIfIdle(),
      closeIfFinished: () => this.#closeIfFinished(),
      fail: (error) => this.#fail(error),
      terminate: (error, reason) => this.#terminate(error, reason),
      close: (reason) => this.#close(reason),
    };
    this.#context = context;
    const clientEvents: ClientSocketEvents = {
      data: this.#onClientData,
      end: () => this.#onClientEnded(),
      close: () => this.#close("client closed"),
    };
    this.#authentication = new AuthenticationExchange(context);
    this.#startup = new StartupHandshake(context, this.#authentication, clientEvents);
    this.#routing = new ClientRouting(context);
    this.#answering = new Answering(context);
    this.#upstreamReplies = new UpstreamReplies(context, this.#authentication);
    this.#relay = new RelayHandOver(context);
    io.listenToClient(options.client, clientEvents);
  }

  /**
   * A parked session woken by its hand-back (`options.resumed`): Ready on its resumed sockets, then the hand-back is
   * taken over. Called by the server once it knows the connection (the hand-back may close it, or park it again).
   */
  resume(): void {
    const context = this.#context;
    const resumed = context.options.resumed;
    if (resumed === undefined || context.state.step !== ConnectionStep.AwaitingStartup) return;
    context.session.backendKey = resumed.backendKey;
    context.session.readyStatus = resumed.handBack.readyStatus as ReadyStatus;
    context.state = READY;
    context.io.attachUpstream(
      wireUpstream(resumed.upstream, {
        client: () => context.io.client,
        logger: context.options.logger,
        onData: (chunk) => context.onUpstreamData(chunk),
        onClose: () => context.close("upstream closed"),
      }),
    );
    this.#relay.resume(resumed.handBack);
  }

  get step(): ConnectionStep {
    return this.#context.state.step;
  }

  /** True while a question is being answered (a cancel request aborts it). */
  get answering(): boolean {
    return answerOf(this.#context.state) !== undefined;
  }

  /** The most bytes of client input ever queued at once while answering (bounded by the queue limit plus one read). */
  get peakQueuedClientBytes(): number {
    return this.#context.io.clientQueue.peakBytes;
  }

  /** Aborts the question being answered (client CancelRequest). */
  abortAnswer(): void {
    answerOf(this.#context.state)?.abort(new CancelledError());
  }

  /**
   * The server is shutting down: close now when no statement runs (FATAL 57P01, as PostgreSQL says on
   * shutdown), else as soon as the running one finishes.
   */
  shutdown(): void {
    this.#context.ending.shuttingDown = true;
    // Mid-message the relay hands it back at the message's end; until then it alone writes to the sockets.
    this.#relay.release();
    this.#closeIfFinished();
  }

  /** Cancels whatever statement runs upstream and ends both sockets now. */
  destroy(): void {
    this.#close("destroyed");
    this.#context.io.client.destroy();
  }

  /**
   * The client shut down its sending side (or closed: the same until a write fails): its SQL still runs and the results
   * go to it, as from PostgreSQL, then it closes (at once mid-message or before Ready); a question is abandoned.
   */
  #onClientEnded(): void {
    const context = this.#context;
    context.ending.clientEnded = true;
    answerOf(context.state)?.abort(new CancelledError("question abandoned: the client ended its input"));
    if (finishesAfterClientEnd(context.state) && context.clientFramer.atBoundary) this.#closeIfFinished();
    else this.#close("client closed");
  }

  // ── client → the step's part ─────────────────────────────────────────────────────────

  readonly #onClientData = (chunk: Buffer): void => {
    const context = this.#context;
    if (this.#startup.startsDirectTls(chunk)) {
      // PostgreSQL 17's direct TLS negotiation: a ClientHello instead of an SSLRequest.
      this.#startup.startClientTls({ kind: "direct", firstChunk: chunk });
      return;
    }
    // What the chunk forwards unchanged leaves as one write (`CoalescingWriter`), at the end of the batch.
    context.io.toUpstream.begin();
    try {
      context.clientFramer.push(chunk, this.#onClientSegment);
    } catch (error) {
      if (context.state.step === ConnectionStep.NegotiatingClientTls) this.#startup.refuseDataBeforeTls();
      else this.#fail(error);
    } finally {
      context.io.toUpstream.end();
    }
    if (context.state.step === ConnectionStep.NegotiatingClientTls)
      this.#startup.startClientTls({ kind: "ssl-request" });
    this.#relay.relayIfIdle();
  };

  readonly #onClientSegment = (segment: FramedSegment): void => {
    const { state, io } = this.#context;
    if (holdsClientInput(state, io.clientQueue.length > 0)) io.enqueue(segment);
    else this.#handleClientSegment(segment);
  };

  /** One client segment, handled by the part that owns the current step. */
  #handleClientSegment(segment: FramedSegment): void {
    const { state, io } = this.#context;
    switch (state.step) {
      case ConnectionStep.AwaitingStartup:
        if (segment.kind === "message") this.#startup.onStartupPacket(segment.message);
        break;
      case ConnectionStep.NegotiatingClientTls:
        this.#startup.refuseDataBeforeTls();
        break;
      case ConnectionStep.AuthenticatingClient:
        if (segment.kind === "message") this.#authentication.onClientMessage(state, segment.message);
        break;
      case ConnectionStep.Authenticating:
        io.writeUpstream(segment.kind === "message" ? segment.message : segment.bytes);
        break;
      // Relayed: the relay reads the client meanwhile, so nothing arrives here; routed as when Ready.
      case ConnectionStep.Ready:
      case ConnectionStep.Relayed:
        this.#routing.onReadySegment(segment);
        break;
      case ConnectionStep.CollectingQuestionBatch:
        this.#routing.onBatchSegment(state, segment);
        break;
      case ConnectionStep.ConnectingUpstream:
      case ConnectionStep.Answering:
        io.enqueue(segment);
        break;
      case ConnectionStep.Closed:
        break;
    }
  }

  /** Handles the client input held meanwhile, up to the next question; throws what a handler throws. */
  #drainClientQueue(): void {
    const context = this.#context;
    const { io } = context;
    io.toUpstream.begin();
    try {
      while (io.clientQueue.length > 0 && context.state.step !== ConnectionStep.Answering) {
        if (isClosed(context.state)) return;
        this.#handleClientSegment(io.clientQueue.shift());
      }
    } finally {
      io.toUpstream.end();
    }
    io.releaseQueueFull();
  }

  // ── closing ──────────────────────────────────────────────────────────────────────────

  /** Closes the connection after an error, telling the client with a FATAL ErrorResponse. Never throws. */
  #fail(error: unknown): void {
    const { logger } = this.#context.options;
    logger.warn("closing connection after an error", { error });
    this.#terminate(toWireError(error, logger), "protocol error");
  }

  /** Sends the client a FATAL ErrorResponse built from `error`, then closes. */
  #terminate(error: WireNotice, reason: string): void {
    if (!isClosed(this.#context.state)) this.#context.io.endClientWithFatal(error);
    this.#close(reason);
  }

  /**
   * Closes the connection once nothing runs when the server shuts down (FATAL 57P01) or the client ended its input;
   * that end goes upstream while a reply is owed and no question is generated (PostgreSQL finishes what it got, then
   * ends; input still queued here is not sent). Never while Relayed (one writer per socket).
   */
  #closeIfFinished(): void {
    const { ending, state, io, pendingReady } = this.#context;
    if ((!ending.shuttingDown && !ending.clientEnded) || state.step === ConnectionStep.Relayed) return;
    if (isClosed(state)) return;
    if (ending.clientEnded && answerOf(state) === undefined && pendingReady.owed) io.upstream?.end();
    if (!mayCloseWhenFinished(state) || io.clientQueue.length > 0 || pendingReady.owed) return;
    if (!ending.shuttingDown) this.#close("client ended");
    else this.#terminate(SHUTTING_DOWN, "shutdown");
  }

  /**
   * Closes the connection, leaving nothing behind upstream: a statement still running (a ReadyForQuery
   * is owed, or a question is answered) is cancelled and the upstream socket destroyed (`leaveNothingBehind`).
   */
  #close(reason: string): void {
    const context = this.#context;
    if (isClosed(context.state)) return;
    this.#relay.leave();
    const answer = answerOf(context.state);
    const statementsInFlight = statementsInFlightOf(context.state);
    const busy = context.pendingReady.owed || answer !== undefined;
    context.state = CLOSED;
    context.io.clientQueue.clear();
    answer?.abort(new CancelledError(`question abandoned: ${reason}`));
    answer?.close();
    statementsInFlight?.finish(true);
    context.pendingReady.releaseWaiters();
    context.io.tearDown(busy ? context.session.backendKey : undefined);
    try {
      context.options.hooks.onClose();
    } catch (error) {
      context.options.logger.error("the connection's close hook failed", { error });
    }
  }
}
