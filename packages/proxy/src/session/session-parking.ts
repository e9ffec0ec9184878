import type { Socket } from "node:net";
import type { RelayedConnection, RelayHandBack } from "../relay/native-relay";
import type { BackendKey } from "./backend-key";
import type { ConnectionConversation } from "./connection-conversation";

/**
 * Parking (issue 30 item 3): an idle relayed session costs the proxy no JavaScript object of its own. When a Ready
 * connection goes to the native relay (nothing to watch: no question to follow up), the relay takes duplicates of both descriptors (`NativeRelay.park`), the connection destroys its two Node.js
 * sockets and lets every object of its state machine go, and the server keeps one small record (`parked-sessions.ts`
 * in server/), with the connection's last answer when it has one (still pickable with `/* nl#2 *\/`). The hand-back (a question, a socket closed, a shutdown) brings the descriptors back; the server wraps
 * them in new sockets and a new `ProxyConnection` resumes from Ready with the hand-back (`ResumedSession`), as a
 * relayed connection taken back does.
 */
export interface SessionParking {
  /**
   * Parks the session: `adopt` hands both sockets to the relay with `onHandBack` (the server's wake-up) and returns the
   * relayed connection, or undefined when the relay cannot take it. True when it was parked: the connection then
   * closes its sockets (their descriptors stay open on the relay's duplicates) and drops its state.
   */
  park(
    adopt: (onHandBack: (handBack: RelayHandBack) => void) => RelayedConnection | undefined,
    backendKey: BackendKey | undefined,
    conversation: ConnectionConversation | undefined,
  ): boolean;
}

/** A parked session woken by its hand-back: what a new connection starts from. */
export interface ResumedSession {
  /** The upstream socket, on the descriptor the hand-back carried (the client's is `ProxyConnectionOptions.client`). */
  readonly upstream: Socket;
  /** The hand-back that woke the session: taken over as a relayed connection's is (`RelayHandOver.resume`). */
  readonly handBack: RelayHandBack;
  /** The upstream session's cancel key (BackendKeyData), as the parked connection knew it. */
  readonly backendKey: BackendKey | undefined;
  /** The parked connection's conversation, when it had an answer to pick from. */
  readonly conversation: ConnectionConversation | undefined;
}
