import type { Socket } from "node:net";
import { CancelledError } from "@nlq/core";
import {
  encodeErrorResponse,
  encodeNoticeResponse,
  REFUSE_ENCRYPTION,
  type ReadyStatus,
} from "../protocol/backend-messages";
import { readBind } from "../protocol/extended-messages";
import { MessageType, readParse, readQueryText, readStartupPacket } from "../protocol/frontend-messages";
import { type FramedSegment, MessageFramer } from "../protocol/message-framer";
import { detectQuestion } from "../question/detect-question";
import { backpressuredWriter } from "./backpressured-writer";
import { ConnectionStep } from "./connection-step";
import type { BackendKey, ProxyConnectionOptions } from "./proxy-connection-options";
import { UnsupportedQuestionBatchError } from "./question-errors";
import { type AskedQuestion, encodeQuestionOutcome, respondToQuestion } from "./respond-to-question";
import { UpstreamQueryExecutor } from "./upstream-query-executor";
import { toWireError } from "./wire-error";

export type {
  BackendKey,
  ProxyConnectionHooks,
  ProxyConnectionOptions,
  ProxySettings,
} from "./proxy-connection-options";

/**
 * One client connection and its upstream connection. Bytes pass through in both directions as the
 * framers hand them back; the connection looks only at startup packets, simple Query, Parse, Sync
 * (and Bind once a prepared statement holds a question) from the client, and ReadyForQuery,
 * BackendKeyData (and ErrorResponse when it has to) from the server.
 *
 * A simple Query carrying the marker is answered by the injected `answerQuestion` on the upstream
 * session; client input is queued meanwhile, and replies stay in order with pipelined statements.
 * A Parse carrying the marker starts an extended-protocol batch that is collected until Sync and
 * answered the same way (ParseComplete, BindComplete, Describe and Execute replies built from the
 * answer); the statement name is remembered so that a later Bind asks the question again. Limits: a
 * question must be alone in its batch, without parameters, with text results.
 */
export class ProxyConnection {
  #step = ConnectionStep.AwaitingStartup;
  readonly #options: ProxyConnectionOptions;
  readonly #client: Socket;
  #upstream: Socket | undefined;
  readonly #clientFramer: MessageFramer;
  readonly #upstreamFramer: MessageFramer;
  readonly #clientQueue: FramedSegment[] = [];
  #readyStatus: ReadyStatus = "I";
  #backendKey: BackendKey | undefined;
  /** ReadyForQuery messages the upstream still owes (one per forwarded Query or Sync). */
  #pendingReady = 0;
  #idleWaiters: Array<() => void> = [];
  /** Extended-protocol messages were forwarded since the last Sync. */
  #forwardedSinceSync = false;
  /** Inject the extended-protocol question error before the next upstream ReadyForQuery. */
  #injectErrorBeforeReady = false;
  #upstreamErrorSeen = false;
  #executor: UpstreamQueryExecutor | undefined;
  #answerAbort: AbortController | undefined;
  /** The extended-protocol batch of a question, collected until Sync. */
  #questionBatch: { detection: AskedQuestion; messages: Buffer[] } | undefined;
  /** Prepared statements (by name) that hold a question: a later Bind to one asks it again. */
  readonly #questionStatements = new Map<string, string>();

  constructor(options: ProxyConnectionOptions) {
    this.#options = options;
    this.#client = options.client;
    this.#clientFramer = new MessageFramer({
      startup: true,
      inspect: (type) =>
        type === MessageType.query ||
        type === MessageType.parse ||
        type === MessageType.sync ||
        type === MessageType.functionCall ||
        this.#step === ConnectionStep.CollectingQuestionBatch ||
        // queued segments are handled later, in whatever step the connection is in then: keep them whole
        this.#step === ConnectionStep.Answering ||
        this.#clientQueue.length > 0 ||
        (type === MessageType.bind && this.#questionStatements.size > 0),
    });
    this.#upstreamFramer = new MessageFramer({
      inspect: (type) =>
        this.#executor !== undefined ||
        type === MessageType.readyForQuery ||
        type === MessageType.backendKeyData ||
        (type === MessageType.errorResponse && this.#injectErrorBeforeReady),
    });
    this.#client.setNoDelay(true);
    this.#client.on("data", (chunk: Buffer) => this.#onClientData(chunk));
    this.#client.on("close", () => this.#close("client closed"));
    this.#client.on("error", (error) => this.#options.logger.warn("client socket error", { error: error.message }));
  }

  get step(): ConnectionStep {
    return this.#step;
  }

  get #closed(): boolean {
    return this.#step === ConnectionStep.Closed;
  }

  /** True while a question is being answered (a cancel request aborts it). */
  get answering(): boolean {
    return this.#answerAbort !== undefined;
  }

  /** Aborts the question being answered (client CancelRequest). */
  abortAnswer(): void {
    this.#answerAbort?.abort(new CancelledError());
  }

  /** Ends both sockets now. */
  destroy(): void {
    this.#client.destroy();
    this.#upstream?.destroy();
  }

  // ── client → upstream ────────────────────────────────────────────────────────────────

  #onClientData(chunk: Buffer): void {
    this.#upstream?.cork();
    try {
      this.#clientFramer.push(chunk, (segment) => {
        if (this.#step === ConnectionStep.Answering || this.#clientQueue.length > 0) this.#clientQueue.push(segment);
        else this.#handleClientSegment(segment);
      });
    } catch (error) {
      this.#fail(error);
    } finally {
      this.#upstream?.uncork();
    }
  }

  #handleClientSegment(segment: FramedSegment): void {
    switch (this.#step) {
      case ConnectionStep.AwaitingStartup:
        if (segment.kind === "message") this.#onStartupPacket(segment.message);
        break;
      case ConnectionStep.Authenticating:
        this.#writeUpstream(segment.kind === "message" ? segment.message : segment.bytes);
        break;
      case ConnectionStep.Ready:
        this.#onReadySegment(segment);
        break;
      case ConnectionStep.CollectingQuestionBatch:
        if (segment.kind === "message") {
          this.#questionBatch?.messages.push(segment.message);
          if (segment.type === MessageType.sync) this.#onQuestionBatchComplete();
        }
        break;
      case ConnectionStep.Answering:
        this.#clientQueue.push(segment);
        break;
      case ConnectionStep.Closed:
        break;
    }
  }

  #onStartupPacket(packet: Buffer): void {
    const startup = readStartupPacket(packet);
    switch (startup.kind) {
      case "ssl-request":
      case "gssenc-request":
        this.#client.write(REFUSE_ENCRYPTION);
        this.#clientFramer.expectStartupPacket();
        break;
      case "cancel-request":
        this.#options.hooks.onCancelRequest({ processId: startup.processId, secretKey: startup.secretKey });
        this.#client.end();
        break;
      case "startup-message":
        this.#openUpstream();
        this.#step = ConnectionStep.Authenticating;
        this.#pendingReady = 1;
        this.#writeUpstream(packet);
        break;
    }
  }

  #onReadySegment(segment: FramedSegment): void {
    if (segment.kind === "bytes") {
      this.#forwardedSinceSync = true;
      this.#writeUpstream(segment.bytes);
      return;
    }
    switch (segment.type) {
      case MessageType.query: {
        const detection = detectQuestion(readQueryText(segment.message), { marker: this.#options.marker });
        if (detection.kind === "sql") {
          this.#pendingReady++;
          this.#forwardedSinceSync = false;
          this.#writeUpstream(segment.message);
        } else {
          void this.#answer(detection);
        }
        break;
      }
      case MessageType.parse: {
        const parse = readParse(segment.message);
        const detection = detectQuestion(parse.text, { marker: this.#options.marker });
        if (detection.kind === "sql") {
          this.#questionStatements.delete(parse.statementName);
          this.#forwardedSinceSync = true;
          this.#writeUpstream(segment.message);
        } else {
          if (detection.kind === "question") this.#questionStatements.set(parse.statementName, detection.question);
          else this.#questionStatements.delete(parse.statementName);
          this.#startQuestionBatch(detection, segment.message);
        }
        break;
      }
      case MessageType.bind: {
        const question = this.#questionStatements.get(readBind(segment.message).statementName);
        if (question === undefined) {
          this.#forwardedSinceSync = true;
          this.#writeUpstream(segment.message);
        } else {
          this.#startQuestionBatch({ kind: "question", question }, segment.message);
        }
        break;
      }
      case MessageType.sync:
        this.#pendingReady++;
        this.#forwardedSinceSync = false;
        this.#writeUpstream(segment.message);
        break;
      case MessageType.functionCall:
        this.#pendingReady++;
        this.#writeUpstream(segment.message);
        break;
      default:
        this.#forwardedSinceSync = true;
        this.#writeUpstream(segment.message);
    }
  }

  #startQuestionBatch(detection: AskedQuestion, first: Buffer): void {
    this.#step = ConnectionStep.CollectingQuestionBatch;
    this.#questionBatch = { detection, messages: [first] };
  }

  /** The Sync that ends an extended-protocol batch holding a question. */
  #onQuestionBatchComplete(): void {
    const batch = this.#questionBatch!;
    this.#questionBatch = undefined;
    this.#step = ConnectionStep.Ready;
    if (this.#forwardedSinceSync) {
      // Earlier messages of this batch went upstream: let the upstream answer them, then report the
      // error just before its ReadyForQuery (unless the upstream already reported an error).
      this.#forwardedSinceSync = false;
      this.#injectErrorBeforeReady = true;
      this.#upstreamErrorSeen = false;
      this.#pendingReady++;
      this.#writeUpstream(Buffer.from([MessageType.sync, 0, 0, 0, 4]));
    } else {
      void this.#answer(batch.detection, batch.messages);
    }
  }

  // ── answering a question ─────────────────────────────────────────────────────────────

  /** Answers a question (simple Query, or an extended-protocol `batch` ending with Sync). */
  async #answer(detection: AskedQuestion, batch?: readonly Buffer[]): Promise<void> {
    this.#step = ConnectionStep.Answering;
    await this.#upstreamIdle();
    if (this.#closed) return;
    const abort = new AbortController();
    this.#answerAbort = abort;
    this.#executor = new UpstreamQueryExecutor({
      write: (bytes) => {
        this.#pendingReady++;
        this.#writeUpstream(bytes);
      },
      requestCancel: () => {
        if (this.#backendKey !== undefined) this.#options.cancelUpstream(this.#backendKey);
      },
    });
    const outcome = await respondToQuestion({
      detection,
      ...(batch === undefined ? {} : { batch }),
      session: this.#executor,
      readyStatus: this.#readyStatus,
      abortSignal: abort.signal,
      answerQuestion: this.#options.answerQuestion,
      settings: this.#options.settings,
      ...(this.#options.queryLog === undefined ? {} : { queryLog: this.#options.queryLog }),
      logger: this.#options.logger,
      ...(this.#options.progressNotices ? { onProgress: (line: string) => this.#sendProgress(line) } : {}),
    });
    // The core may return while a statement it abandoned is still running: wait for its ReadyForQuery.
    await this.#upstreamIdle();
    this.#executor = undefined;
    this.#answerAbort = undefined;
    if (this.#closed) return;
    this.#client.cork();
    for (const message of encodeQuestionOutcome(outcome, batch, this.#readyStatus)) this.#client.write(message);
    this.#client.uncork();
    this.#step = ConnectionStep.Ready;
    this.#drainClientQueue();
  }

  #sendProgress(line: string): void {
    if (this.#closed) return;
    this.#writeClient(encodeNoticeResponse({ severity: "NOTICE", code: "00000", message: line }));
  }

  #drainClientQueue(): void {
    this.#upstream?.cork();
    try {
      while (this.#clientQueue.length > 0 && this.#step !== ConnectionStep.Answering) {
        if (this.#step === ConnectionStep.Closed) return;
        this.#handleClientSegment(this.#clientQueue.shift()!);
      }
    } finally {
      this.#upstream?.uncork();
    }
  }

  #upstreamIdle(): Promise<void> {
    if (this.#pendingReady === 0 || this.#step === ConnectionStep.Closed) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  // ── upstream → client ────────────────────────────────────────────────────────────────

  #openUpstream(): void {
    const upstream = this.#options.connectUpstream();
    this.#upstream = upstream;
    upstream.setNoDelay(true);
    let connected = false;
    upstream.on("connect", () => {
      connected = true;
    });
    upstream.on("data", (chunk: Buffer) => this.#onUpstreamData(chunk));
    upstream.on("error", (error) => {
      this.#options.logger.warn("upstream socket error", { error: error.message });
      if (!connected && !this.#client.destroyed) {
        this.#client.end(
          encodeErrorResponse({
            severity: "FATAL",
            code: "08006",
            message: "nlq proxy could not connect to the upstream server",
          }),
        );
      }
    });
    upstream.on("close", () => this.#close("upstream closed"));
  }

  #onUpstreamData(chunk: Buffer): void {
    this.#client.cork();
    try {
      this.#upstreamFramer.push(chunk, (segment) => this.#onUpstreamSegment(segment));
    } catch (error) {
      this.#fail(error);
    } finally {
      this.#client.uncork();
    }
  }

  #onUpstreamSegment(segment: FramedSegment): void {
    if (segment.kind === "bytes") {
      this.#writeClient(segment.bytes);
      return;
    }
    const { type, message } = segment;
    if (type === MessageType.readyForQuery) {
      this.#readyStatus = String.fromCharCode(message[5]!) as ReadyStatus;
      if (this.#step === ConnectionStep.Authenticating) this.#step = ConnectionStep.Ready;
      if (this.#injectErrorBeforeReady) {
        this.#injectErrorBeforeReady = false;
        if (!this.#upstreamErrorSeen) {
          const error = new UnsupportedQuestionBatchError(
            "a natural-language question must be alone in its extended-protocol batch (send Sync before it)",
          );
          this.#writeClient(encodeErrorResponse(toWireError(error, this.#options.logger)));
        }
      }
    } else if (type === MessageType.backendKeyData) {
      this.#backendKey = { processId: message.readInt32BE(5), secretKey: message.readInt32BE(9) };
      this.#options.hooks.onBackendKey(this, this.#backendKey);
    } else if (type === MessageType.errorResponse && this.#injectErrorBeforeReady) {
      this.#upstreamErrorSeen = true;
    }
    const executor = this.#executor;
    if (executor !== undefined && type !== MessageType.notificationResponse && type !== MessageType.sync) {
      // While answering, everything else belongs to the pipeline's statements (ParameterStatus shares `S`).
      executor.receive(message);
    } else {
      this.#writeClient(message);
    }
    if (type === MessageType.readyForQuery) {
      this.#pendingReady = Math.max(0, this.#pendingReady - 1);
      if (this.#pendingReady === 0) {
        // Nothing outstanding: COPY data and the like that went upstream since are settled.
        this.#forwardedSinceSync = false;
        const waiters = this.#idleWaiters;
        this.#idleWaiters = [];
        for (const resolve of waiters) resolve();
      }
    }
  }

  // ── plumbing ─────────────────────────────────────────────────────────────────────────

  /** Writes to the upstream; stops reading the client until the upstream drains. */
  readonly #writeUpstream = backpressuredWriter(
    () => this.#upstream,
    () => this.#client,
  );

  /** Writes to the client; stops reading the upstream until the client drains. */
  readonly #writeClient = backpressuredWriter(
    () => this.#client,
    () => this.#upstream,
  );

  #fail(error: unknown): void {
    this.#options.logger.warn("closing connection after a protocol error", { error });
    const wire = toWireError(error, this.#options.logger);
    if (!this.#client.destroyed) this.#client.end(encodeErrorResponse({ ...wire, severity: "FATAL" }));
    this.#upstream?.destroy();
    this.#close("protocol error");
  }

  #close(reason: string): void {
    if (this.#step === ConnectionStep.Closed) return;
    this.#step = ConnectionStep.Closed;
    this.#answerAbort?.abort(new CancelledError(`question abandoned: ${reason}`));
    this.#executor?.close();
    for (const resolve of this.#idleWaiters) resolve();
    this.#idleWaiters = [];
    if (!this.#client.destroyed) this.#client.end();
    this.#upstream?.end();
    this.#options.hooks.onClose(this);
  }
}
