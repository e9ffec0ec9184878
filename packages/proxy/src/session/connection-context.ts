import type { ReadyStatus, WireNotice } from "../protocol/backend-messages";
import type { MessageFramer } from "../protocol/message-framer";
import type { ClientMessageRouter } from "./client-message-router";
import type { ConnectionIo } from "./connection-io";
import type { ConnectionEnding, ConnectionState } from "./connection-state";
import type { PendingReady } from "./pending-ready";
import type { BackendKey, ProxyConnectionOptions } from "./proxy-connection-options";
import type { QuestionBatch } from "./question-batch";
import type { QuestionBatchError } from "./question-batch-error";
import type { AskedQuestion } from "./respond-to-question";

/** What the connection knows of its upstream session, whatever its state. */
export interface UpstreamSession {
  /** The transaction status of the last ReadyForQuery. */
  readyStatus: ReadyStatus;
  /** The session's BackendKeyData, once received (closing cancels a running statement with it). */
  backendKey: BackendKey | undefined;
}

/**
 * What every part of one connection's state machine shares (`proxy-connection.ts` builds it): the state, the I/O, the
 * framers, the session's facts, and the transitions that another part owns, reached through here so that the parts
 * never import one another in a circle.
 */
export interface ConnectionContext {
  readonly options: ProxyConnectionOptions;
  readonly io: ConnectionIo;
  readonly clientFramer: MessageFramer;
  readonly upstreamFramer: MessageFramer;
  readonly router: ClientMessageRouter;
  /** ReadyForQuery messages the upstream still owes. */
  readonly pendingReady: PendingReady;
  /** Reported before the next upstream ReadyForQuery when scheduled. */
  readonly questionBatchError: QuestionBatchError;
  readonly session: UpstreamSession;
  readonly ending: ConnectionEnding;
  /** The current state; each transition replaces it. */
  state: ConnectionState;

  /** Client bytes, as read from its socket (or handed back by the relay). */
  onClientData(chunk: Buffer): void;
  /** The client shut down its sending side. */
  onClientEnded(): void;
  /** Upstream bytes, as read from its socket (or handed back by the relay). */
  onUpstreamData(chunk: Buffer): void;
  /** Handles the client input held meanwhile, up to the next question; throws what a handler throws. */
  drainClientQueue(): void;
  /** Answers a question in the background (`answering.ts`). */
  startAnswer(detection: AskedQuestion, batch?: QuestionBatch): void;
  /** Answers a simple Query holding questions among other statements in the background (`answering.ts`). */
  startAnsweringStatements(text: string): void;
  /** Hands the connection to the native relay when nothing here needs to watch it (`relay-hand-over.ts`). */
  relayIfIdle(): void;
  /** Closes a winding-down connection once nothing runs. */
  closeIfFinished(): void;
  /** Closes after an error, telling the client with a FATAL ErrorResponse. Never throws. */
  fail(error: unknown): void;
  /** Sends the client a FATAL ErrorResponse built from `error`, then closes. */
  terminate(error: WireNotice, reason: string): void;
  /** Closes the connection, leaving nothing behind upstream. */
  close(reason: string): void;
}
