import type { ClientAuthentication } from "../auth/client-authentication";
import type { RelayedConnection } from "../relay/native-relay";
import type { AnswerInProgress } from "./answer-in-progress";
import { ConnectionStep } from "./connection-step";
import type { QuestionBatch } from "./question-batch";
import type { StatementsInFlight } from "./statements-in-flight";

/**
 * The state of one proxied connection: its step and that step's own data, one value at a time. Transitions, and the
 * file that makes each:
 *
 * ```
 * from                     on                                          to                           in
 * AwaitingStartup          SSLRequest answered S, or a ClientHello     NegotiatingClientTls         startup-handshake.ts
 * NegotiatingClientTls     handshake done                              AwaitingStartup              startup-handshake.ts
 * AwaitingStartup          StartupMessage, with an auth source         AuthenticatingClient         authentication-exchange.ts
 * AwaitingStartup          StartupMessage (AuthenticatingClient:       ConnectingUpstream, or       authentication-exchange.ts
 *                            SCRAM done)                                 Authenticating at once
 * ConnectingUpstream       upstream open                               Authenticating               authentication-exchange.ts
 * Authenticating           upstream ReadyForQuery                      Ready                        upstream-replies.ts
 * Ready                    marked Query, or a Query mixing both        Answering                    client-routing.ts
 * Ready                    marked Parse, Bind of a prepared question   CollectingQuestionBatch      client-routing.ts
 * CollectingQuestionBatch  Sync                                        Answering (or Ready, error)  client-routing.ts
 * Answering                answer written                              Ready                        answering.ts
 * Ready                    nothing to watch (mayHandToRelay)           Relayed                      relay-hand-over.ts
 * Relayed                  hand-back                                   Ready                        relay-hand-over.ts
 * any                      socket closed, error, winding down done     Closed                       proxy-connection.ts
 * ```
 */
export type ConnectionState =
  | { readonly step: ConnectionStep.AwaitingStartup }
  | { readonly step: ConnectionStep.NegotiatingClientTls }
  | AuthenticatingClientState
  | { readonly step: ConnectionStep.ConnectingUpstream }
  | { readonly step: ConnectionStep.Authenticating }
  | { readonly step: ConnectionStep.Ready }
  | CollectingQuestionBatchState
  | AnsweringState
  | RelayedState
  | { readonly step: ConnectionStep.Closed };

/** The proxy runs its own SCRAM exchange with the client; the StartupMessage waits for the upstream. */
export interface AuthenticatingClientState {
  readonly step: ConnectionStep.AuthenticatingClient;
  readonly authentication: ClientAuthentication;
  readonly startupPacket: Buffer;
}

/** The extended-protocol batch of a question, collected until Sync. */
export interface CollectingQuestionBatchState {
  readonly step: ConnectionStep.CollectingQuestionBatch;
  readonly batch: QuestionBatch;
}

/**
 * A question (or a simple Query holding questions among other statements) is answered on the upstream session.
 * `answer` is set while a question's statements run, `statementsInFlight` while a run of ordinary statements does.
 */
export interface AnsweringState {
  readonly step: ConnectionStep.Answering;
  answer: AnswerInProgress | undefined;
  statementsInFlight: StatementsInFlight | undefined;
}

/** The native relay moves the connection's bytes. */
export interface RelayedState {
  readonly step: ConnectionStep.Relayed;
  readonly relayed: RelayedConnection;
}

/** Why the connection winds down, whatever its step: it closes once nothing runs (`proxy-connection.ts`). */
export interface ConnectionEnding {
  /** The client shut down its sending side: answer what it sent (as PostgreSQL does), then close. */
  clientEnded: boolean;
  /** The server is shutting down: close as soon as no statement runs. */
  shuttingDown: boolean;
}

export const READY: ConnectionState = { step: ConnectionStep.Ready };

export const CLOSED: ConnectionState = { step: ConnectionStep.Closed };

export function isClosed(state: ConnectionState): boolean {
  return state.step === ConnectionStep.Closed;
}

/** A fresh Answering state, no statement running yet. */
export function answeringState(): AnsweringState {
  return { step: ConnectionStep.Answering, answer: undefined, statementsInFlight: undefined };
}

/** The question being answered, if any. */
export function answerOf(state: ConnectionState): AnswerInProgress | undefined {
  return state.step === ConnectionStep.Answering ? state.answer : undefined;
}

/** The run of a split query's ordinary statements under way, if any. */
export function statementsInFlightOf(state: ConnectionState): StatementsInFlight | undefined {
  return state.step === ConnectionStep.Answering ? state.statementsInFlight : undefined;
}

/** Client input is held for later in this state (or behind input already held): it must not be handled now. */
export function holdsClientInput(state: ConnectionState, queued: boolean): boolean {
  return state.step === ConnectionStep.Answering || state.step === ConnectionStep.ConnectingUpstream || queued;
}

/**
 * Client messages of every type must be framed whole in this state (the framer otherwise passes uninspected types
 * on as they stream): they are collected, queued or read by the proxy itself.
 */
export function needsWholeClientMessages(state: ConnectionState): boolean {
  return (
    state.step === ConnectionStep.CollectingQuestionBatch ||
    state.step === ConnectionStep.ConnectingUpstream ||
    state.step === ConnectionStep.AuthenticatingClient ||
    // queued segments are handled later, in whatever step the connection is in then: keep them whole
    state.step === ConnectionStep.Answering
  );
}

/** The client ended its input in a step that finishes its session first (else the connection closes at once). */
export function finishesAfterClientEnd(state: ConnectionState): boolean {
  return (
    state.step === ConnectionStep.Ready ||
    state.step === ConnectionStep.Answering ||
    // the relay hands the connection back at its next message boundary before it may close
    state.step === ConnectionStep.Relayed
  );
}

/** A winding-down connection may close in this state once nothing is owed or held (never mid-handshake). */
export function mayCloseWhenFinished(state: ConnectionState): boolean {
  return state.step === ConnectionStep.Ready || state.step === ConnectionStep.AwaitingStartup;
}

/** What decides whether a connection may go to the native relay, besides its state. */
export interface RelayReadiness {
  readonly state: ConnectionState;
  readonly ending: ConnectionEnding;
  /** TLS toward the client is terminated here: the relay moves plain TCP only. */
  readonly clientEncrypted: boolean;
  readonly clientInputQueued: boolean;
  /** A question batch's error waits for the upstream's ReadyForQuery. */
  readonly questionBatchErrorPending: boolean;
  /** Prepared statements holding a question: their Bind and Execute must be seen here. */
  readonly preparedQuestions: number;
  /** Earlier questions a follow-up would see: the next ordinary SQL must be seen here to forget them. */
  readonly followingEarlierQuestions: boolean;
  /** Neither framer holds part of a message. */
  readonly atMessageBoundaries: boolean;
  /** Either socket's reading is paused (backpressure, queue full, a large message deferred). */
  readonly readsPaused: boolean;
}

/**
 * The connection has nothing for JavaScript to watch: it is Ready (so no question is answered, collected or split,
 * and it is not relayed already), not winding down, plain TCP, holds no queued input, no pending error, no prepared
 * question, no conversation to forget, no partial message and no paused read.
 */
export function mayHandToRelay(readiness: RelayReadiness): boolean {
  return (
    readiness.state.step === ConnectionStep.Ready &&
    !readiness.ending.shuttingDown &&
    !readiness.ending.clientEnded &&
    !readiness.clientEncrypted &&
    !readiness.clientInputQueued &&
    !readiness.questionBatchErrorPending &&
    readiness.preparedQuestions === 0 &&
    !readiness.followingEarlierQuestions &&
    readiness.atMessageBoundaries &&
    !readiness.readsPaused
  );
}
