import type { Socket } from "node:net";
import type { Answer, AnswerQuestionOptions, QueryLog } from "@nlq/engine";
import type { AuthSource } from "../auth/auth-query";
import type { NativeRelay } from "../relay/native-relay";
import type { ProxyLogger } from "../server/proxy-logger";
import type { ClientTls } from "../tls/client-tls";
import type { BackendKey } from "./backend-key";
import type { PickedAnswer, PickOptions } from "./pick-options";
import type { ResumedSession, SessionParking } from "./session-parking";

/** Resolved core settings (`loadSettings(process.env)`), passed through to `answerQuestion`. */
export type { BackendKey };

export type ProxySettings = AnswerQuestionOptions["settings"];

/** Named hooks the server gives each connection (each connection gets its own, so they need not name it). */
export interface ProxyConnectionHooks {
  /** A client sent a CancelRequest on this (new) connection. */
  onCancelRequest(key: BackendKey): void;
  /** The upstream announced this connection's cancel key. */
  onBackendKey(key: BackendKey): void;
  /** The client's StartupMessage (whole, header included), before anything is done with it. */
  onStartupMessage?(packet: Buffer): void;
  /** Both sockets are gone. */
  onClose(): void;
  /** The native relay took the connection (`true`) or gave it back (`false`). */
  onRelayed?(relayed: boolean): void;
}

export interface ProxyConnectionOptions {
  /** The accepted client socket. */
  readonly client: Socket;
  /**
   * Opens the connection to the upstream server (called once, on StartupMessage): a socket at once, or a promise of
   * one when TLS is negotiated first (`createUpstreamConnector`).
   */
  readonly connectUpstream: () => Socket | Promise<Socket>;
  /** TLS toward the client (SSLRequest answered `S`, direct negotiation accepted). Default: none, SSLRequest gets `N`. */
  readonly clientTls?: ClientTls;
  /**
   * Authenticate clients here with SCRAM-SHA-256 against this source's verifiers and log in upstream with the
   * recovered keys (`NLQ_AUTH_QUERY_URL`). Default: none, authentication passes through.
   */
  readonly authSource?: AuthSource;
  /** Sends a CancelRequest with `key` to the upstream server. */
  readonly cancelUpstream: (key: BackendKey) => void;
  /** Text that opens a question inside a comment (the server's default is `nl:`). */
  readonly marker: string;
  /** Answers one question on the connection's upstream session. */
  readonly answerQuestion: (options: AnswerQuestionOptions) => Promise<Answer>;
  /**
   * Runs a picked interpretation of the connection's last answer (`/* nl#2 *\/;`); default `answerWithInterpretation`
   * (the server passes one that audits it like an answer).
   */
  readonly answerPick?: (options: PickOptions) => Promise<PickedAnswer>;
  /** Handed through to `answerQuestion`. */
  readonly settings: ProxySettings;
  /** Handed through to `answerQuestion`; default none. */
  readonly queryLog?: QueryLog;
  /** Send pipeline progress as NOTICEs while answering (default false). */
  readonly progressNotices?: boolean;
  /** Log sink for errors that must not reach the client. */
  readonly logger: ProxyLogger;
  /**
   * Client input held while a question is answered, in bytes, before the connection stops reading the
   * client until the answer is sent. Default 1 MiB (`DEFAULT_CLIENT_QUEUE_LIMIT_BYTES`).
   */
  readonly clientQueueLimitBytes?: number;
  /**
   * Moves ordinary SQL between the sockets outside JavaScript while the connection has nothing to watch (`nativeRelay()`).
   * Default: none, every byte passes through this connection's framers.
   */
  readonly relay?: NativeRelay;
  /**
   * Parks the session when it goes to the relay with nothing to remember (`session-parking.ts`): its sockets and state
   * are let go until the relay hands it back. Default: none, a relayed connection keeps its objects.
   */
  readonly parking?: SessionParking;
  /** This connection resumes a parked session (its client socket wraps the hand-back's descriptor): it starts Ready. */
  readonly resumed?: ResumedSession;
  /** Named hooks into the server (cancel routing, bookkeeping). */
  readonly hooks: ProxyConnectionHooks;
}
