import type { Socket } from "node:net";
import type { TLSSocket } from "node:tls";
import { CancelledError } from "@nlq/engine";
import { serialize } from "pg-protocol";
import type { AuthSource } from "../auth/auth-query";
import { ClientAuthentication, startupUser } from "../auth/client-authentication";
import { ScramUpstreamLogin } from "../auth/scram-upstream-login";
import {
  encodeErrorResponse,
  encodeNoticeResponse,
  encodeReadyForQuery,
  REFUSE_ENCRYPTION,
  type ReadyStatus,
  type WireNotice,
} from "../protocol/backend-messages";
import { MessageType, readStartupPacket } from "../protocol/frontend-messages";
import { type FramedSegment, type LargeMessageFate, MessageFramer } from "../protocol/message-framer";
import { ProtocolViolationError } from "../protocol/protocol-error";
import { readReadyStatus } from "../protocol/ready-for-query";
import { type BatchPart, planStatementBatch } from "../question/plan-statement-batch";
import type { RelayedConnection, RelayHandBack } from "../relay/native-relay";
import { resumeReading } from "../relay/socket-reading";
import { acceptClientTls, type ClientTlsNegotiation, TLS_HANDSHAKE_RECORD } from "../tls/accept-client-tls";
import { tlsServerEndPoint } from "../tls/tls-server-end-point";
import { AnswerInProgress } from "./answer-in-progress";
import { encodeAnswerResult } from "./answer-messages";
import { backpressuredWriter } from "./backpressured-writer";
import { ClientInputQueue } from "./client-input-queue";
import { ClientMessageRouter, type ClientRoute } from "./client-message-router";
import { CoalescingWriter } from "./coalescing-writer";
import { ConnectionStep } from "./connection-step";
import { DATA_BEFORE_TLS, ENCRYPTION_REQUIRED, SHUTTING_DOWN } from "./fatal-notices";
import { leaveNothingBehind } from "./leave-nothing-behind";
import { openUpstream } from "./open-upstream";
import { PendingReady } from "./pending-ready";
import type { BackendKey, ProxyConnectionOptions } from "./proxy-connection-options";
import { QuestionBatch } from "./question-batch";
import { QuestionBatchError } from "./question-batch-error";
import { LARGE_CLIENT_MESSAGE_BYTES } from "./question-errors";
import { ReadPauses } from "./read-pauses";
import { type AskedQuestion, encodeQuestionOutcome, type QuestionOutcome } from "./respond-to-question";
import { StatementsInFlight } from "./statements-in-flight";
import { answerUpstreamAuthentication } from "./upstream-authentication";
import { toWireError } from "./wire-error";

/**
 * One client connection and its upstream connection. Bytes pass through in both directions as the
 * framers hand them back, joined again into one write per received chunk (`CoalescingWriter`: what passes
 * through unchanged is never split into several writes); the connection looks only at startup packets,
 * simple Query, Parse, Sync (and Bind once a prepared statement holds a question) from the client, and ReadyForQuery,
 * BackendKeyData (and ErrorResponse when it has to) from the server.
 *
 * A simple Query carrying the marker is answered by the injected `answerQuestion` on the upstream
 * session; client input is queued meanwhile, and replies stay in order with pipelined statements.
 * A Parse carrying the marker starts an extended-protocol batch that is collected until Sync and
 * answered the same way (ParseComplete, BindComplete, Describe and Execute replies built from the
 * answer). The statement is generated once, at its Parse batch: a later Bind, Describe or Execute of the same
 * prepared statement re-runs the SQL generated then (`PreparedQuestions`, `rerunPreparedQuestion`). Limits: a
 * question must be alone in its batch, without parameters, with text results.
 *
 * With the native relay (`options.relay`), a connection with nothing to watch (ready, no question under way, no
 * prepared question, nothing held or unwritten) is handed to it, and ordinary SQL passes through it without entering
 * JavaScript; it comes back here, with its state and every byte it held, when a question arrives, a socket closes, or
 * the server shuts down (`#relayIfIdle`, `#takeBack`).
 */
export class ProxyConnection {
  #step = ConnectionStep.AwaitingStartup;
  readonly #options: ProxyConnectionOptions;
  /** The client socket: the accepted one, replaced by its TLS socket once a handshake completes. */
  #client: Socket;
  /** The client's connection is encrypted (TLS toward the client is terminated here). */
  #clientEncrypted = false;
  #upstream: Socket | undefined;
  readonly #clientFramer: MessageFramer;
  readonly #upstreamFramer: MessageFramer;
  readonly #clientQueue = new ClientInputQueue();
  readonly #clientQueueLimitBytes: number;
  readonly #clientPauses = new ReadPauses(() => this.#client);
  readonly #upstreamPauses = new ReadPauses(() => this.#upstream);
  /** The server is shutting down: close as soon as no statement runs. */
  #shuttingDown = false;
  /** The client shut down its sending side: answer what it sent (as PostgreSQL does), then close. */
  #clientEnded = false;
  #readyStatus: ReadyStatus = "I";
  #backendKey: BackendKey | undefined;
  readonly #pendingReady = new PendingReady();
  readonly #router: ClientMessageRouter;
  /** Reported before the next upstream ReadyForQuery when scheduled. */
  readonly #questionBatchError = new QuestionBatchError();
  #answerInProgress: AnswerInProgress | undefined;
  /** The proxy's own SCRAM exchange with the client (`authSource`), while it runs. */
  #clientAuthentication: ClientAuthentication | undefined;
  /** The proxy's SCRAM login upstream with the client's recovered keys, until AuthenticationOk. */
  #upstreamLogin: ScramUpstreamLogin | undefined;
  /** The StartupMessage, kept while the proxy authenticates the client before opening the upstream. */
  #startupPacket: Buffer | undefined;
  /** The extended-protocol batch of a question, collected until Sync. */
  #questionBatch: QuestionBatch | undefined;
  /** Ordinary statements of a split query running upstream: their replies pass through until their ReadyForQuery. */
  #statementsInFlight: StatementsInFlight | undefined;
  /** The native relay moves this connection's bytes while set. */
  #relayed: RelayedConnection | undefined;
  /** A hand-back is being taken over: its bytes are handled here before the relay may take the connection again. */
  #takingBack = false;

  constructor(options: ProxyConnectionOptions) {
    this.#options = options;
    this.#client = options.client;
    this.#clientQueueLimitBytes = options.clientQueueLimitBytes ?? DEFAULT_CLIENT_QUEUE_LIMIT_BYTES;
    this.#router = new ClientMessageRouter(options.marker);
    this.#clientFramer = new MessageFramer({
      startup: true,
      inspect: (type) =>
        this.#router.inspects(type) ||
        this.#step === ConnectionStep.CollectingQuestionBatch ||
        this.#step === ConnectionStep.ConnectingUpstream ||
        this.#step === ConnectionStep.AuthenticatingClient ||
        // queued segments are handled later, in whatever step the connection is in then: keep them whole
        this.#step === ConnectionStep.Answering ||
        this.#clientQueue.length > 0,
      large: { limit: LARGE_CLIENT_MESSAGE_BYTES, decide: (type, total, head) => this.#decideLarge(type, total, head) },
    });
    this.#upstreamFramer = new MessageFramer({
      inspect: (type) =>
        this.#answerInProgress !== undefined ||
        (this.#statementsInFlight !== undefined && StatementsInFlight.inspects(type)) ||
        this.#router.copyIn.inspects(type) ||
        type === MessageType.readyForQuery ||
        type === MessageType.backendKeyData ||
        (type === MessageType.authenticationRequest && this.#upstreamLogin !== undefined) ||
        (type === MessageType.errorResponse && this.#questionBatchError.pending),
      // A row past the byte cap of the answer's statement is dropped as it streams, never held (the cap cancels it).
      skip: (type, total) => type === MessageType.dataRow && this.#answerInProgress?.refusesRow(total - 1) === true,
    });
    this.#client.setNoDelay(true);
    this.#listenToClient(this.#client);
  }

  #listenToClient(client: Socket): void {
    client.on("data", this.#onClientData);
    client.on("end", () => client === this.#client && this.#onClientEnded());
    client.on("close", () => this.#close("client closed"));
    client.on("error", (error) => this.#options.logger.warn("client socket error", { error: error.message }));
  }

  get step(): ConnectionStep {
    return this.#step;
  }

  get #closed(): boolean {
    return this.#step === ConnectionStep.Closed;
  }

  /** True while a question is being answered (a cancel request aborts it). */
  get answering(): boolean {
    return this.#answerInProgress !== undefined;
  }

  /** The most bytes of client input ever queued at once while answering (bounded by the queue limit plus one read). */
  get peakQueuedClientBytes(): number {
    return this.#clientQueue.peakBytes;
  }

  /** Aborts the question being answered (client CancelRequest). */
  abortAnswer(): void {
    this.#answerInProgress?.abort(new CancelledError());
  }

  /**
   * The server is shutting down: close now when no statement runs (FATAL 57P01, as PostgreSQL says on
   * shutdown), else as soon as the running one finishes.
   */
  shutdown(): void {
    this.#shuttingDown = true;
    // Mid-message the relay hands it back at the message's end (`#takeBack`); until then it alone writes to the sockets.
    const handBack = this.#relayed?.release();
    if (handBack !== undefined) this.#takeBack(handBack);
    this.#closeIfFinished();
  }

  /**
   * The client shut down its sending side (or closed: the same until a write fails): its SQL still runs and the results
   * go to it, as from PostgreSQL, then it closes (at once mid-message or before Ready); a question is abandoned.
   */
  #onClientEnded(): void {
    this.#clientEnded = true;
    this.#answerInProgress?.abort(new CancelledError("question abandoned: the client ended its input"));
    const ready = this.#step === ConnectionStep.Ready || this.#step === ConnectionStep.Answering;
    if (ready && this.#clientFramer.atBoundary) this.#closeIfFinished();
    else this.#close("client closed");
  }

  /** Cancels whatever statement runs upstream and ends both sockets now. */
  destroy(): void {
    this.#close("destroyed");
    this.#client.destroy();
  }

  // ── client → upstream ────────────────────────────────────────────────────────────────

  readonly #onClientData = (chunk: Buffer): void => {
    if (
      this.#step === ConnectionStep.AwaitingStartup &&
      chunk[0] === TLS_HANDSHAKE_RECORD &&
      this.#options.clientTls !== undefined &&
      !this.#clientEncrypted &&
      this.#clientFramer.atBoundary
    ) {
      // PostgreSQL 17's direct TLS negotiation: a ClientHello instead of an SSLRequest.
      this.#startClientTls({ kind: "direct", firstChunk: chunk });
      return;
    }
    // What the chunk forwards unchanged leaves as one write (`CoalescingWriter`), at the end of the batch.
    this.#toUpstream.begin();
    try {
      this.#clientFramer.push(chunk, this.#onClientSegment);
    } catch (error) {
      if (this.#step === ConnectionStep.NegotiatingClientTls) this.#refuseDataBeforeTls();
      else this.#fail(error);
    } finally {
      this.#toUpstream.end();
    }
    if (this.#step === ConnectionStep.NegotiatingClientTls) this.#startClientTls({ kind: "ssl-request" });
    this.#relayIfIdle();
  };

  readonly #onClientSegment = (segment: FramedSegment): void => {
    if (
      this.#step === ConnectionStep.Answering ||
      this.#step === ConnectionStep.ConnectingUpstream ||
      this.#clientQueue.length > 0
    )
      this.#enqueue(segment);
    else this.#handleClientSegment(segment);
  };

  #handleClientSegment(segment: FramedSegment): void {
    switch (this.#step) {
      case ConnectionStep.AwaitingStartup:
        if (segment.kind === "message") this.#onStartupPacket(segment.message);
        break;
      case ConnectionStep.NegotiatingClientTls:
        this.#refuseDataBeforeTls();
        break;
      case ConnectionStep.ConnectingUpstream:
        this.#enqueue(segment);
        break;
      case ConnectionStep.AuthenticatingClient:
        if (segment.kind === "message") this.#onClientAuthenticationMessage(segment.message);
        break;
      case ConnectionStep.Authenticating:
        this.#writeUpstream(segment.kind === "message" ? segment.message : segment.bytes);
        break;
      case ConnectionStep.Ready:
        this.#follow(this.#router.route(segment));
        break;
      case ConnectionStep.CollectingQuestionBatch:
        if (segment.kind === "message") {
          this.#questionBatch?.add(segment.message);
          if (segment.type === MessageType.sync) this.#onQuestionBatchComplete();
        }
        break;
      case ConnectionStep.Answering:
        this.#enqueue(segment);
        break;
      case ConnectionStep.Closed:
        break;
    }
  }

  #onStartupPacket(packet: Buffer): void {
    const startup = readStartupPacket(packet);
    switch (startup.kind) {
      case "ssl-request":
        if (this.#clientEncrypted) throw new ProtocolViolationError("SSLRequest on a connection already encrypted");
        if (this.#options.clientTls === undefined) {
          this.#client.write(REFUSE_ENCRYPTION);
          this.#clientFramer.expectStartupPacket();
        } else {
          // The handshake starts once this chunk is framed: any byte after the SSLRequest in it is refused.
          this.#step = ConnectionStep.NegotiatingClientTls;
        }
        break;
      case "gssenc-request":
        this.#client.write(REFUSE_ENCRYPTION);
        this.#clientFramer.expectStartupPacket();
        break;
      case "cancel-request":
        this.#options.hooks.onCancelRequest({ processId: startup.processId, secretKey: startup.secretKey });
        this.#client.end();
        break;
      case "startup-message": {
        this.#options.hooks.onStartupMessage?.(packet);
        if (this.#options.clientTls?.required && !this.#clientEncrypted) {
          this.#terminate(ENCRYPTION_REQUIRED, "unencrypted startup refused");
          break;
        }
        if (this.#options.authSource !== undefined) {
          this.#authenticateClient(packet, this.#options.authSource);
          break;
        }
        this.#openUpstream(packet);
        break;
      }
    }
  }

  /** Opens the upstream connection and sends it the StartupMessage (at once, or once TLS is negotiated). */
  #openUpstream(packet: Buffer): void {
    const upstream = openUpstream({
      connectUpstream: this.#options.connectUpstream,
      client: () => this.#client,
      logger: this.#options.logger,
      onData: (chunk) => this.#onUpstreamData(chunk),
      onClose: () => this.#close("upstream closed"),
    });
    this.#pendingReady.expect();
    if (upstream instanceof Promise) {
      this.#step = ConnectionStep.ConnectingUpstream;
      upstream.then(
        (opened) => this.#onUpstreamOpened(opened, packet),
        (error: unknown) => this.#fail(error),
      );
    } else {
      this.#upstream = upstream;
      this.#step = ConnectionStep.Authenticating;
      this.#writeUpstream(packet);
    }
  }

  // ── the proxy's own authentication (NLQ_AUTH_QUERY_URL) ──────────────────────────────

  /** Runs SCRAM-SHA-256 with the client against the auth source's verifier; the upstream is opened once it succeeds. */
  #authenticateClient(packet: Buffer, source: AuthSource): void {
    this.#step = ConnectionStep.AuthenticatingClient;
    // On a TLS connection SCRAM-SHA-256-PLUS is offered, bound to the proxy's own certificate.
    const binding = this.#clientEncrypted ? tlsServerEndPoint(this.#client as TLSSocket) : undefined;
    const authentication = new ClientAuthentication(startupUser(packet), source, binding);
    this.#clientAuthentication = authentication;
    this.#startupPacket = packet;
    authentication.begin().then(
      (request) => {
        if (!this.#closed) this.#writeClient(request);
      },
      (error: unknown) => this.#fail(error),
    );
  }

  #onClientAuthenticationMessage(message: Buffer): void {
    const authentication = this.#clientAuthentication;
    if (authentication === undefined) throw new ProtocolViolationError("unexpected message during authentication");
    const { reply, authenticated } = authentication.receive(message);
    this.#writeClient(reply);
    if (authenticated === undefined) return;
    this.#clientAuthentication = undefined;
    this.#upstreamLogin = new ScramUpstreamLogin(authenticated.clientKey, authenticated.verifier);
    const packet = this.#startupPacket!;
    this.#startupPacket = undefined;
    this.#openUpstream(packet);
  }

  /** The upstream connection is open (TLS negotiated): send the StartupMessage and the client input held meanwhile. */
  #onUpstreamOpened(upstream: Socket | undefined, startupPacket: Buffer): void {
    if (upstream === undefined || this.#closed) {
      upstream?.destroy();
      this.#close("upstream not opened");
      return;
    }
    this.#upstream = upstream;
    this.#step = ConnectionStep.Authenticating;
    this.#writeUpstream(startupPacket);
    try {
      this.#drainClientQueue();
    } catch (error) {
      this.#fail(error);
    }
  }

  // ── TLS toward the client ────────────────────────────────────────────────────────────

  /**
   * Runs the TLS handshake on the client socket (after `S`, or on a ClientHello sent first), then expects the
   * StartupMessage over TLS. A failed handshake closes the connection.
   */
  #startClientTls(negotiation: ClientTlsNegotiation): void {
    const raw = this.#client;
    this.#step = ConnectionStep.NegotiatingClientTls;
    raw.off("data", this.#onClientData);
    acceptClientTls(raw, this.#options.clientTls!, negotiation).then(
      (secure) => {
        if (this.#closed) {
          secure.destroy();
          return;
        }
        this.#client = secure;
        this.#clientEncrypted = true;
        this.#step = ConnectionStep.AwaitingStartup;
        this.#clientFramer.expectStartupPacket();
        this.#listenToClient(secure);
        this.#closeIfFinished();
      },
      (error: unknown) => {
        this.#options.logger.warn("TLS handshake with the client failed", {
          error: error instanceof Error ? error.message : String(error),
        });
        raw.destroy();
        this.#close("client TLS handshake failed");
      },
    );
  }

  /**
   * Bytes that followed an SSLRequest before the handshake: refused, as PostgreSQL does since CVE-2021-23214 (they
   * could have been injected by a man in the middle and would be taken as sent over TLS).
   */
  #refuseDataBeforeTls(): void {
    this.#terminate(DATA_BEFORE_TLS, "unencrypted data after SSLRequest");
  }

  #follow(route: ClientRoute): void {
    switch (route.kind) {
      case "forward":
        if (route.awaitsReady) this.#pendingReady.expect();
        this.#writeUpstream(route.bytes);
        break;
      case "answer":
        this.#startAnswer(route.detection);
        break;
      case "split":
        this.#answerStatements(route.text).catch((error: unknown) => this.#fail(error));
        break;
      case "collect":
        this.#startQuestionBatch(route.detection, route.statement, route.first);
        break;
    }
  }

  /**
   * A Query or Parse too large to hold whole: when ready, passed or refused as it streams (`routeLarge`); behind a
   * question, the client is not read further until the question is answered, then it is decided again.
   */
  #decideLarge(type: number, total: number, head: Buffer): LargeMessageFate {
    if (this.#step === ConnectionStep.Answering) this.#clientPauses.hold("large");
    if (this.#clientPauses.has("large")) return "defer";
    if (this.#step !== ConnectionStep.Ready || this.#clientQueue.length > 0) return "hold";
    const route = this.#router.routeLarge(type, total, head);
    if (route.refused !== undefined) this.#startAnswer(route.refused);
    if (route.awaitsReady) this.#pendingReady.expect();
    return route.fate;
  }

  #startQuestionBatch(detection: AskedQuestion, statement: string, first: Buffer): void {
    this.#step = ConnectionStep.CollectingQuestionBatch;
    this.#questionBatch = new QuestionBatch(detection, statement, first, this.#clientQueueLimitBytes);
  }

  /** The Sync that ends an extended-protocol batch holding a question. */
  #onQuestionBatchComplete(): void {
    const batch = this.#questionBatch!;
    this.#questionBatch = undefined;
    this.#step = ConnectionStep.Ready;
    if (this.#router.takeForwardedSinceSync()) {
      // Earlier messages of this batch went upstream: let the upstream answer them, then report the
      // error just before its ReadyForQuery (unless the upstream already reported an error).
      this.#questionBatchError.schedule();
      this.#pendingReady.expect();
      this.#writeUpstream(serialize.sync());
    } else {
      this.#startAnswer(batch.detection, batch);
    }
  }

  // ── answering a question ─────────────────────────────────────────────────────────────

  /** Answers a question in the background; anything it throws closes this connection (FATAL), never the process. */
  #startAnswer(detection: AskedQuestion, batch?: QuestionBatch): void {
    this.#answer(detection, batch).catch((error: unknown) => this.#fail(error));
  }

  /**
   * Answers a question (simple Query, or an extended-protocol `batch` ending with Sync). A batch with the question's
   * Parse generates (once); a later batch of the same prepared statement re-runs the SQL generated then.
   */
  async #answer(detection: AskedQuestion, batch?: QuestionBatch): Promise<void> {
    this.#step = ConnectionStep.Answering;
    await this.#upstreamIdle();
    if (this.#closed) return;
    const messages = batch?.messages;
    const outcome = await this.#respond(detection, batch);
    if (outcome === undefined) return;
    if (messages !== undefined) {
      this.#router.statements.settle(messages, outcome.kind === "answer" ? outcome.answer : undefined);
    }
    this.#writeClientMessages(encodeQuestionOutcome(outcome, messages, this.#readyStatus, this.#router.marker));
    this.#finishAnswering();
  }

  /**
   * Answers a simple Query that holds questions among other statements, in order, as one multi-statement query:
   * each run of ordinary statements goes upstream untouched as one simple Query (its replies pass through, its
   * ReadyForQuery is held back), each question is answered in place, and the first error ends the batch; one
   * ReadyForQuery ends it all. Unlike one multi-statement query, the runs and questions are separate implicit
   * transactions (an explicit BEGIN … COMMIT around them still holds).
   */
  async #answerStatements(text: string): Promise<void> {
    this.#step = ConnectionStep.Answering;
    await this.#upstreamIdle();
    if (this.#closed) return;
    let parts: BatchPart[] = [];
    let error: WireNotice | undefined;
    try {
      parts = await planStatementBatch(text, this.#router.marker);
    } catch (caught) {
      error = toWireError(caught, this.#options.logger);
    }
    for (const part of parts) {
      if (part.kind === "sql") {
        const succeeded = await this.#passStatements(part.text);
        if (this.#closed) return;
        if (!succeeded) break;
        continue;
      }
      const outcome = await this.#respond({ kind: "question", question: part.question }, undefined);
      if (outcome === undefined) return;
      if (outcome.kind === "error") {
        error = outcome.error;
        break;
      }
      this.#writeClientMessages(encodeAnswerResult(outcome.answer, this.#router.marker));
    }
    if (this.#closed) return;
    this.#writeClientMessages([
      ...(error === undefined ? [] : [encodeErrorResponse(error)]),
      encodeReadyForQuery(this.#readyStatus),
    ]);
    this.#finishAnswering();
  }

  /** Sends ordinary statements upstream as one simple Query; resolves at its ReadyForQuery (false after an error). */
  #passStatements(text: string): Promise<boolean> {
    return new Promise((resolve) => {
      this.#statementsInFlight = new StatementsInFlight(resolve);
      this.#pendingReady.expect();
      this.#writeUpstream(serialize.query(text));
    });
  }

  /** Runs one question on the upstream session; undefined when the connection closed meanwhile. */
  async #respond(detection: AskedQuestion, batch: QuestionBatch | undefined): Promise<QuestionOutcome | undefined> {
    const answer = new AnswerInProgress({
      write: (bytes) => {
        this.#pendingReady.expect();
        this.#writeUpstream(bytes);
      },
      requestCancel: () => {
        // Closing cancels what still runs itself (leaveNothingBehind): one CancelRequest, not two.
        if (this.#closed) return;
        if (this.#backendKey !== undefined) this.#options.cancelUpstream(this.#backendKey);
      },
    });
    this.#answerInProgress = answer;
    if (this.#clientEnded) answer.abort(new CancelledError("question abandoned: the client ended its input"));
    const messages = batch?.messages;
    const generated =
      batch === undefined || messages?.[0]?.[0] === MessageType.parse
        ? undefined
        : this.#router.statements.get(batch.statement)?.answer;
    const outcome = await answer.respond(
      {
        detection,
        batch: messages,
        statement: batch?.statement ?? "",
        generated,
        readyStatus: this.#readyStatus,
        onProgress: this.#options.progressNotices ? (line) => this.#sendProgress(line) : undefined,
        conversation: this.#router.conversation,
        marker: this.#router.marker,
      },
      this.#options,
    );
    // The core may return while a statement it abandoned is still running: wait for its ReadyForQuery.
    await this.#upstreamIdle();
    this.#answerInProgress = undefined;
    if (this.#closed) return undefined;
    return outcome;
  }

  #writeClientMessages(messages: readonly Buffer[]): void {
    this.#toClient.flush();
    this.#client.cork();
    for (const message of messages) this.#client.write(message);
    this.#client.uncork();
  }

  /** The answer is sent: handle the client input held meanwhile. */
  #finishAnswering(): void {
    this.#step = ConnectionStep.Ready;
    this.#drainClientQueue();
    if (this.#step === ConnectionStep.Ready) this.#clientPauses.release("large");
    this.#closeIfFinished();
    this.#relayIfIdle();
  }

  #sendProgress(line: string): void {
    if (this.#closed) return;
    this.#writeClient(encodeNoticeResponse({ severity: "NOTICE", code: "00000", message: line }));
  }

  /** Holds a client segment until the answer is sent; stops reading the client while too much is held. */
  #enqueue(segment: FramedSegment): void {
    this.#clientQueue.push(segment);
    if (this.#clientQueue.bytes > this.#clientQueueLimitBytes) this.#clientPauses.hold("queue-full");
  }

  /** Handles the client input held while answering, up to the next question; throws what a handler throws. */
  #drainClientQueue(): void {
    this.#toUpstream.begin();
    try {
      while (this.#clientQueue.length > 0 && this.#step !== ConnectionStep.Answering) {
        if (this.#step === ConnectionStep.Closed) return;
        this.#handleClientSegment(this.#clientQueue.shift());
      }
    } finally {
      this.#toUpstream.end();
    }
    if (this.#clientQueue.bytes <= this.#clientQueueLimitBytes) this.#clientPauses.release("queue-full");
  }

  #upstreamIdle(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    return this.#pendingReady.whenIdle();
  }

  // ── upstream → client ────────────────────────────────────────────────────────────────

  #onUpstreamData(chunk: Buffer): void {
    // What the chunk forwards unchanged leaves as one write (`CoalescingWriter`), at the end of the batch.
    this.#toClient.begin();
    try {
      this.#upstreamFramer.push(chunk, this.#onUpstreamSegment);
    } catch (error) {
      this.#fail(error);
    } finally {
      this.#toClient.end();
    }
    this.#relayIfIdle();
  }

  readonly #onUpstreamSegment = (segment: FramedSegment): void => {
    if (segment.kind === "bytes") {
      this.#writeClient(segment.bytes);
      return;
    }
    const { type, message } = segment;
    const login = this.#upstreamLogin;
    if (type === MessageType.authenticationRequest && login !== undefined) {
      if (answerUpstreamAuthentication(message, login, this.#writeUpstream) === "answered") return;
      this.#upstreamLogin = undefined;
    }
    this.#router.copyIn.note(type);
    if (this.#statementsInFlight !== undefined) {
      this.#onPassedStatementReply(type, message);
      return;
    }
    if (type === MessageType.readyForQuery) {
      this.#readyStatus = readReadyStatus(message);
      if (this.#step === ConnectionStep.Authenticating) this.#step = ConnectionStep.Ready;
      const questionBatchError = this.#questionBatchError.takeBeforeReady(this.#options.logger);
      if (questionBatchError !== undefined) this.#writeClient(questionBatchError);
    } else if (type === MessageType.backendKeyData) {
      this.#backendKey = { processId: message.readInt32BE(5), secretKey: message.readInt32BE(9) };
      this.#options.hooks.onBackendKey(this.#backendKey);
    } else if (type === MessageType.errorResponse) {
      this.#questionBatchError.noteUpstreamError();
    }
    const answer = this.#answerInProgress;
    if (answer !== undefined && type !== MessageType.notificationResponse && type !== MessageType.parameterStatus) {
      // While answering, everything else belongs to the pipeline's statements.
      answer.receive(message);
    } else {
      this.#writeClient(message);
    }
    if (type === MessageType.readyForQuery && this.#pendingReady.received()) {
      this.#router.upstreamSettled();
      this.#closeIfFinished();
    }
  };

  /** A reply to ordinary statements of a split query: passed through, but its ReadyForQuery ends the run instead. */
  #onPassedStatementReply(type: number, message: Buffer): void {
    const run = this.#statementsInFlight!;
    const reply = run.receive(type);
    if (reply === "forward") this.#writeClient(message);
    if (reply === "refuse-copy") this.#writeUpstream(serialize.copyFail(COPY_REFUSAL));
    if (reply !== "ready") return;
    this.#readyStatus = readReadyStatus(message);
    this.#statementsInFlight = undefined;
    if (this.#pendingReady.received()) this.#router.upstreamSettled();
    run.finish();
  }

  // ── the native relay ─────────────────────────────────────────────────────────────────

  /**
   * Hands the connection to the native relay when nothing here needs to watch it: it is ready, answers no question,
   * holds no prepared question, no queued input, no partial message and nothing unwritten, and both sockets are
   * plain TCP (TLS is terminated here).
   */
  #relayIfIdle(): void {
    const relay = this.#options.relay;
    const upstream = this.#upstream;
    if (relay === undefined || upstream === undefined || this.#relayed !== undefined || this.#takingBack) return;
    const idle =
      this.#step === ConnectionStep.Ready &&
      !this.#shuttingDown &&
      !this.#clientEnded &&
      !this.#clientEncrypted &&
      this.#answerInProgress === undefined &&
      this.#statementsInFlight === undefined &&
      this.#questionBatch === undefined &&
      this.#clientQueue.length === 0 &&
      !this.#questionBatchError.pending &&
      this.#router.statements.size === 0 &&
      // earlier questions a follow-up would see: the next ordinary SQL must be seen here to forget them
      !this.#router.conversation.following &&
      this.#clientFramer.atBoundary &&
      this.#upstreamFramer.atBoundary &&
      !this.#clientPauses.holding &&
      !this.#upstreamPauses.holding;
    if (!idle) return;
    this.#relayed = relay.adopt(
      this.#client,
      upstream,
      this.#router.marker.encodedTokens(),
      {
        pendingReady: this.#pendingReady.count,
        forwardedSinceSync: this.#router.forwardedSinceSync,
        readyStatus: this.#readyStatus,
        copyIn: this.#router.copyIn.active,
      },
      (handBack) => this.#takeBack(handBack),
    );
    if (this.#relayed !== undefined) this.#options.hooks.onRelayed?.(true);
  }

  /**
   * The native relay handed the connection back: take over its state, write what it could not send yet, read both
   * sockets again and handle the bytes it held (the question that made it stop comes first).
   */
  #takeBack(handBack: RelayHandBack): void {
    this.#relayed = undefined;
    this.#options.hooks.onRelayed?.(false);
    if (this.#closed) return;
    this.#pendingReady.restore(handBack.pendingReady);
    this.#router.restoreForwardedSinceSync(handBack.forwardedSinceSync);
    this.#readyStatus = handBack.readyStatus as ReadyStatus;
    this.#router.copyIn.restore(handBack.copyIn);
    if (handBack.toUpstream !== undefined) this.#writeUpstream(handBack.toUpstream);
    if (handBack.toClient !== undefined) this.#writeClient(handBack.toClient);
    if (handBack.reason === "client-closed" || handBack.reason === "upstream-closed") {
      this.#close(handBack.reason === "client-closed" ? "client closed" : "upstream closed");
      return;
    }
    this.#takingBack = true;
    try {
      resumeReading(this.#client);
      if (this.#upstream !== undefined) resumeReading(this.#upstream);
      if (handBack.upstreamInput !== undefined) this.#onUpstreamData(handBack.upstreamInput);
      if (handBack.clientInput !== undefined && !this.#closed) this.#onClientData(handBack.clientInput);
    } finally {
      this.#takingBack = false;
    }
    if (handBack.reason === "client-ended" && !this.#closed) this.#onClientEnded();
    this.#closeIfFinished();
    this.#relayIfIdle();
  }

  /**
   * Takes the connection from the relay before closing it: its state when it is at a message boundary; else it is
   * dropped (mid-message, a result was flowing, or its hand-back is already on its way) and counted as a statement
   * still running, so closing cancels it (a cancel for an idle session does nothing).
   */
  #leaveRelay(): void {
    const relayed = this.#relayed;
    if (relayed === undefined) return;
    this.#relayed = undefined;
    this.#options.hooks.onRelayed?.(false);
    const handBack = relayed.releaseOrDetach();
    this.#pendingReady.restore(handBack?.pendingReady ?? Math.max(1, this.#pendingReady.count));
  }

  // ── plumbing ─────────────────────────────────────────────────────────────────────────

  /** Writes to the upstream (joining adjacent pieces of one client chunk); pauses the client until it drains. */
  readonly #toUpstream = new CoalescingWriter(backpressuredWriter(() => this.#upstream, this.#clientPauses));
  readonly #writeUpstream = (bytes: Buffer): void => this.#toUpstream.write(bytes);

  /** Writes to the client (joining adjacent pieces of one upstream chunk); pauses the upstream until it drains. */
  readonly #toClient = new CoalescingWriter(backpressuredWriter(() => this.#client, this.#upstreamPauses));
  readonly #writeClient = (bytes: Buffer): void => this.#toClient.write(bytes);

  /** Closes the connection after an error, telling the client with a FATAL ErrorResponse. Never throws. */
  #fail(error: unknown): void {
    this.#options.logger.warn("closing connection after an error", { error });
    this.#terminate(toWireError(error, this.#options.logger), "protocol error");
  }

  /** Sends the client a FATAL ErrorResponse built from `error`, then closes. */
  #terminate(error: WireNotice, reason: string): void {
    if (!this.#client.destroyed && this.#step !== ConnectionStep.Closed) {
      this.#toClient.flush();
      this.#client.end(encodeErrorResponse({ ...error, severity: "FATAL" }));
    }
    this.#close(reason);
  }

  /**
   * Closes the connection once nothing runs when the server shuts down (FATAL 57P01) or the client ended its input;
   * that end goes upstream while a reply is owed and no question is generated (PostgreSQL finishes what it got, then
   * ends; input still queued here is not sent). Never while the relay holds it (one writer per socket).
   */
  #closeIfFinished(): void {
    if ((!this.#shuttingDown && !this.#clientEnded) || this.#relayed !== undefined) return;
    if (this.#clientEnded && this.#answerInProgress === undefined && this.#pendingReady.owed) this.#upstream?.end();
    const ready = this.#step === ConnectionStep.Ready || this.#step === ConnectionStep.AwaitingStartup;
    if (!ready || this.#answerInProgress || this.#clientQueue.length > 0 || this.#pendingReady.owed) return;
    if (!this.#shuttingDown) this.#close("client ended");
    else this.#terminate(SHUTTING_DOWN, "shutdown");
  }

  /**
   * Closes the connection, leaving nothing behind upstream: a statement still running (a ReadyForQuery
   * is owed, or a question is answered) is cancelled and the upstream socket destroyed (`leaveNothingBehind`).
   */
  #close(reason: string): void {
    if (this.#step === ConnectionStep.Closed) return;
    this.#leaveRelay();
    const busy = this.#pendingReady.owed || this.#answerInProgress !== undefined;
    this.#step = ConnectionStep.Closed;
    this.#clientQueue.clear();
    this.#answerInProgress?.abort(new CancelledError(`question abandoned: ${reason}`));
    this.#answerInProgress?.close();
    this.#statementsInFlight?.finish(true);
    this.#statementsInFlight = undefined;
    this.#pendingReady.releaseWaiters();
    // The client may still read what was sent (its socket is ended); the upstream socket is destroyed.
    this.#toClient.flush();
    this.#toUpstream.discard();
    leaveNothingBehind({
      client: this.#client,
      upstream: this.#upstream,
      cancelKey: busy ? this.#backendKey : undefined,
      cancelUpstream: this.#options.cancelUpstream,
      logger: this.#options.logger,
    });
    try {
      this.#options.hooks.onClose();
    } catch (error) {
      this.#options.logger.error("the connection's close hook failed", { error });
    }
  }
}

/** The CopyFail a COPY FROM STDIN among a split query's statements gets: the client's input is held meanwhile. */
const COPY_REFUSAL = "COPY FROM STDIN cannot share a query with a natural-language question";

/** Default limit of client input held while a question is answered: 1 MiB. */
export const DEFAULT_CLIENT_QUEUE_LIMIT_BYTES = 1024 * 1024;
