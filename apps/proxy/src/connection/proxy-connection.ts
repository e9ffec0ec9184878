import type { Socket } from "node:net";
import {
  type Answer,
  type AnswerQuestionOptions,
  CancelledError,
  type PipelineEvent,
  type QueryLog,
  type TransactionStatus,
} from "@nlq/core";
import {
  encodeErrorResponse,
  encodeNoticeResponse,
  encodeReadyForQuery,
  REFUSE_ENCRYPTION,
  type ReadyStatus,
} from "../protocol/backend-messages";
import { readBind } from "../protocol/extended-messages";
import { MessageType, readParse, readQueryText, readStartupPacket } from "../protocol/frontend-messages";
import { type FramedSegment, MessageFramer } from "../protocol/message-framer";
import { detectQuestion, type QuestionDetection } from "../question/detect-question";
import type { ProxyLogger } from "../server/proxy-logger";
import { encodeAnswer } from "./answer-messages";
import { ConnectionStep } from "./connection-step";
import { checkQuestionBatch, encodeExtendedAnswer } from "./extended-answer";
import { describeProgress } from "./progress-notice";
import { UnsupportedQuestionBatchError } from "./question-errors";
import { UpstreamQueryExecutor } from "./upstream-query-executor";
import { toWireError } from "./wire-error";

/** Resolved core settings (`loadSettings(process.env)`), passed through to `answerQuestion`. */
export type ProxySettings = AnswerQuestionOptions["settings"];

/** The upstream session's cancel key, from BackendKeyData. */
export interface BackendKey {
  readonly processId: number;
  readonly secretKey: number;
}

/** Named hooks the server gives each connection. */
export interface ProxyConnectionHooks {
  /** A client sent a CancelRequest on this (new) connection. */
  onCancelRequest(key: BackendKey): void;
  /** The upstream announced this connection's cancel key. */
  onBackendKey(connection: ProxyConnection, key: BackendKey): void;
  /** Both sockets are gone. */
  onClose(connection: ProxyConnection): void;
}

export interface ProxyConnectionOptions {
  /** The accepted client socket. */
  readonly client: Socket;
  /** Opens the TCP connection to the upstream server (called once, on StartupMessage). */
  readonly connectUpstream: () => Socket;
  /** Sends a CancelRequest with `key` to the upstream server. */
  readonly cancelUpstream: (key: BackendKey) => void;
  /** Text that opens a question inside a comment (the server's default is `nl:`). */
  readonly marker: string;
  /** Answers one question on the connection's upstream session. */
  readonly answerQuestion: (options: AnswerQuestionOptions) => Promise<Answer>;
  /** Handed through to `answerQuestion`. */
  readonly settings: ProxySettings;
  /** Handed through to `answerQuestion`; default none. */
  readonly queryLog?: QueryLog;
  /** Send pipeline progress as NOTICEs while answering (default false). */
  readonly progressNotices?: boolean;
  /** Log sink for errors that must not reach the client. */
  readonly logger: ProxyLogger;
  /** Named hooks into the server (cancel routing, bookkeeping). */
  readonly hooks: ProxyConnectionHooks;
}

/** A question, or a malformed one to report. */
type AskedQuestion = Exclude<QuestionDetection, { kind: "sql" }>;

const TRANSACTION_STATUS: Record<ReadyStatus, TransactionStatus> = {
  I: "idle",
  T: "in-transaction",
  E: "failed",
};

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
  #clientPaused = false;
  #upstreamPaused = false;
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
    let messages: Buffer[];
    let failed = false;
    try {
      if (detection.kind === "invalid") throw detection.error;
      if (batch !== undefined) checkQuestionBatch(batch);
      const executor = new UpstreamQueryExecutor({
        write: (bytes) => {
          this.#pendingReady++;
          this.#writeUpstream(bytes);
        },
        requestCancel: () => {
          if (this.#backendKey !== undefined) this.#options.cancelUpstream(this.#backendKey);
        },
      });
      this.#executor = executor;
      this.#answerAbort = abort;
      const answer = await this.#options.answerQuestion({
        question: detection.question,
        session: executor,
        transactionStatus: TRANSACTION_STATUS[this.#readyStatus],
        settings: this.#options.settings,
        ...(this.#options.queryLog === undefined ? {} : { queryLog: this.#options.queryLog }),
        abortSignal: abort.signal,
        origin: "proxy",
        ...(this.#options.progressNotices ? { onEvent: (event: PipelineEvent) => this.#sendProgress(event) } : {}),
      });
      if (abort.signal.aborted) throw new CancelledError();
      this.#options.logger.info("answered a question", {
        question: detection.question,
        sql: answer.sql,
        rows: answer.result.rows.length,
        model: answer.model.id,
        elapsedMilliseconds: answer.elapsedMilliseconds,
      });
      messages =
        batch === undefined
          ? encodeAnswer(answer, this.#readyStatus)
          : encodeExtendedAnswer(batch, answer, this.#readyStatus);
    } catch (error) {
      failed = true;
      const reported = abort.signal.aborted && !(error instanceof CancelledError) ? new CancelledError() : error;
      messages = [encodeErrorResponse(toWireError(reported, this.#options.logger))];
    }
    // The core may return while a statement it abandoned is still running: wait for its ReadyForQuery.
    await this.#upstreamIdle();
    this.#executor = undefined;
    this.#answerAbort = undefined;
    if (this.#closed) return;
    if (failed) messages.push(encodeReadyForQuery(this.#readyStatus));
    this.#client.cork();
    for (const message of messages) this.#client.write(message);
    this.#client.uncork();
    this.#step = ConnectionStep.Ready;
    this.#drainClientQueue();
  }

  #sendProgress(event: PipelineEvent): void {
    const line = describeProgress(event);
    if (line === undefined || this.#closed) return;
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

  /** Writes to the upstream; stops reading the client until the upstream drains (backpressure). */
  #writeUpstream(bytes: Buffer): void {
    const upstream = this.#upstream;
    if (upstream === undefined || upstream.destroyed) return;
    if (!upstream.write(bytes) && !this.#clientPaused) {
      this.#clientPaused = true;
      this.#client.pause();
      upstream.once("drain", () => {
        this.#clientPaused = false;
        this.#client.resume();
      });
    }
  }

  /** Writes to the client; stops reading the upstream until the client drains (backpressure). */
  #writeClient(bytes: Buffer): void {
    if (this.#client.destroyed) return;
    if (!this.#client.write(bytes) && !this.#upstreamPaused) {
      this.#upstreamPaused = true;
      this.#upstream?.pause();
      this.#client.once("drain", () => {
        this.#upstreamPaused = false;
        this.#upstream?.resume();
      });
    }
  }

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
