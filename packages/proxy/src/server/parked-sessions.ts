import type { QuestionAsker } from "@nlq/adapters";
import type { RelayedConnection, RelayHandBack } from "../relay/native-relay";
import { socketOfDescriptor } from "../relay/socket-reading";
import type { ConnectionConversation } from "../session/connection-conversation";
import type { ProxyConnection } from "../session/proxy-connection";
import type { BackendKey } from "../session/proxy-connection-options";
import type { ProxyLogger } from "./proxy-logger";

/**
 * What the server keeps of one parked session (`session/session-parking.ts`): the relay's handle on it, its cancel key,
 * who asks on it and, once it has asked, its conversation. Nothing else of the session lives in JavaScript until the relay hands it back.
 */
export interface ParkedSession {
  readonly relayed: RelayedConnection;
  readonly backendKey: BackendKey | undefined;
  readonly role: string;
  readonly asker: QuestionAsker | undefined;
  /** Its last answer and earlier turns, when it had an answer to pick from (else nothing is kept). */
  readonly conversation: ConnectionConversation | undefined;
}

/** The server's side of parking: how a woken session becomes a connection again, and how one is cancelled. */
export interface ParkedSessionsOptions {
  /** Serves a woken session as a new connection: its client socket and what it resumes from. */
  readonly wake: (session: ParkedSession, handBack: RelayHandBack, descriptors: WokenSockets) => ProxyConnection;
  /** Sends a CancelRequest upstream (a detached session may have had a result flowing). */
  readonly cancelUpstream: (key: BackendKey) => void;
  /** A parked session ended without waking (detached while the server was closing). */
  readonly onEnded: (session: ParkedSession) => void;
  readonly logger: ProxyLogger;
}

/** The two sockets of a woken session, on the descriptors its hand-back carried. */
export interface WokenSockets {
  readonly client: ReturnType<typeof socketOfDescriptor>;
  readonly upstream: ReturnType<typeof socketOfDescriptor>;
}

/**
 * The server's parked sessions: one record each (`ParkedSession`), woken into a new `ProxyConnection` by their
 * hand-back; asked back when the server shuts down (each woken connection then shuts down as any does), dropped when
 * its grace period is over.
 */
export class ParkedSessions {
  readonly #sessions = new Set<ParkedSession>();
  readonly #options: ParkedSessionsOptions;

  constructor(options: ParkedSessionsOptions) {
    this.#options = options;
  }

  get size(): number {
    return this.#sessions.size;
  }

  /**
   * Parks a session through `adopt` (the relay's `park`), with the hand-back going to `wake`; the record, or
   * undefined when the relay did not take it.
   */
  park(
    adopt: (onHandBack: (handBack: RelayHandBack) => void) => RelayedConnection | undefined,
    facts: Omit<ParkedSession, "relayed">,
  ): ParkedSession | undefined {
    let session: ParkedSession | undefined;
    const relayed = adopt((handBack) => {
      if (session !== undefined) this.#wake(session, handBack);
    });
    if (relayed === undefined) return undefined;
    session = { relayed, ...facts };
    this.#sessions.add(session);
    return session;
  }

  /** Asks every parked session back (the server shuts down): each wakes, at once or at its message's end. */
  releaseAll(): ProxyConnection[] {
    const woken: ProxyConnection[] = [];
    for (const session of [...this.#sessions]) {
      const handBack = session.relayed.release();
      const connection = handBack === undefined ? undefined : this.#wake(session, handBack);
      if (connection !== undefined) woken.push(connection);
    }
    return woken;
  }

  /**
   * Drops every parked session now (the grace period is over): one at a message boundary wakes (and is destroyed by
   * the caller with the others); one mid-message is detached (the relay closes its sockets) and its statement
   * cancelled.
   */
  dropAll(): ProxyConnection[] {
    const woken: ProxyConnection[] = [];
    for (const session of [...this.#sessions]) {
      const handBack = session.relayed.releaseOrDetach();
      if (handBack !== undefined) {
        const connection = this.#wake(session, handBack);
        if (connection !== undefined) woken.push(connection);
        continue;
      }
      this.#sessions.delete(session);
      if (session.backendKey !== undefined) this.#options.cancelUpstream(session.backendKey);
      this.#options.onEnded(session);
    }
    return woken;
  }

  #wake(session: ParkedSession, handBack: RelayHandBack): ProxyConnection | undefined {
    this.#sessions.delete(session);
    const { clientDescriptor, upstreamDescriptor } = handBack;
    if (clientDescriptor === undefined || upstreamDescriptor === undefined) {
      // Never for a parked session (the relay owns its descriptors); its sockets are gone with it.
      this.#options.logger.error("a parked session came back without its sockets", { reason: handBack.reason });
      this.#options.onEnded(session);
      return undefined;
    }
    const sockets = { client: socketOfDescriptor(clientDescriptor), upstream: socketOfDescriptor(upstreamDescriptor) };
    return this.#options.wake(session, handBack, sockets);
  }
}
