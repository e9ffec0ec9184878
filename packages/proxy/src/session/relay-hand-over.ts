import type { ReadyStatus } from "../protocol/backend-messages";
import type { RelayHandBack } from "../relay/native-relay";
import { closeParkedSocket, resumeReading } from "../relay/socket-reading";
import type { ConnectionContext } from "./connection-context";
import { CLOSED, isClosed, mayHandToRelay, READY } from "./connection-state";
import { ConnectionStep } from "./connection-step";

/**
 * The hand-over to the native relay (`options.relay`, `relay/native-relay.ts`), between Ready and **Relayed**.
 *
 * - Ready → Relayed when nothing here needs to watch the connection (`mayHandToRelay`, checked after every chunk
 *   handled): both sockets go to the relay with the connection's protocol state (owed ReadyForQuery count, extended
 *   messages since Sync, transaction status, COPY and the Syncs since its command), and ordinary SQL passes through
 *   it without entering JavaScript.
 * - **Relayed** accepts nothing here: the relay alone reads and writes the sockets.
 * - Relayed → Ready when the relay hands the connection back (a question arrived, the client ended its input, a
 *   message it will not judge, or `release` on shutdown): the relay's state is taken over, what it could not send yet
 *   is written, both sockets are read again, and the bytes it held are handled here (the question first). A socket the
 *   relay saw close closes the connection.
 * - Ready → Closed, **parked** (`options.parking`, `session-parking.ts`), instead of Relayed: the relay owns duplicates of both descriptors, both sockets are closed here and this
 *   connection is let go (no close hook: the session lives on in the relay); a new connection resumes it from its
 *   hand-back (`resume`).
 * - Relayed → Closed (`leave`, from `close`): taken back at a message boundary, else dropped and counted as a
 *   statement still running, so that closing cancels it.
 */
export class RelayHandOver {
  readonly #context: ConnectionContext;
  /** A hand-back is being taken over: its bytes are handled here before the relay may take the connection again. */
  #takingBack = false;

  constructor(context: ConnectionContext) {
    this.#context = context;
  }

  /** Ready → Relayed when nothing here needs to watch the connection. */
  relayIfIdle(): void {
    const context = this.#context;
    const { options, io, router } = context;
    const relay = options.relay;
    const upstream = io.upstream;
    if (relay === undefined || upstream === undefined || this.#takingBack) return;
    // Called on every chunk either way: the cheap refusals first, before the whole readiness is gathered.
    if (context.state.step !== ConnectionStep.Ready || io.clientEncrypted) return;
    const idle = mayHandToRelay({
      state: context.state,
      ending: context.ending,
      clientEncrypted: io.clientEncrypted,
      clientInputQueued: io.clientQueue.length > 0,
      questionBatchErrorPending: context.questionBatchError.pending,
      preparedQuestions: router.statements.size,
      followingEarlierQuestions: router.conversation.following,
      atMessageBoundaries: context.clientFramer.atBoundary && context.upstreamFramer.atBoundary,
      readsPaused: io.clientPauses.holding || io.upstreamPauses.holding,
    });
    if (!idle) return;
    const client = io.client;
    const marker = router.marker.encodedTokens();
    const start = {
      pendingReady: context.pendingReady.count,
      forwardedSinceSync: router.forwardedSinceSync,
      readyStatus: context.session.readyStatus,
      copyIn: router.copyIn.active,
      syncsAfterCommand: router.copyIn.syncsAfterCommand,
    };
    const parking = options.parking;
    if (parking !== undefined) {
      const parked = parking.park(
        (onHandBack) => relay.park(client, upstream, marker, start, onHandBack),
        context.session.backendKey,
        router.conversation.lastAnswer === undefined ? undefined : router.conversation,
      );
      if (parked) {
        context.state = CLOSED;
        options.hooks.onRelayed?.(true);
        closeParkedSocket(client);
        closeParkedSocket(upstream);
        return;
      }
    }
    const relayed = relay.adopt(client, upstream, marker, start, (handBack) => this.#takeBack(handBack));
    if (relayed === undefined) return;
    context.state = { step: ConnectionStep.Relayed, relayed };
    options.hooks.onRelayed?.(true);
  }

  /**
   * Asks the relay for the connection back (the server shuts down): taken back now at a message boundary; else the
   * relay hands it back at the message's end, and until then it alone writes to the sockets.
   */
  release(): void {
    const state = this.#context.state;
    if (state.step !== ConnectionStep.Relayed) return;
    const handBack = state.relayed.release();
    if (handBack !== undefined) this.#takeBack(handBack);
  }

  /** A parked session's hand-back, on a new connection that starts Ready (`ProxyConnectionOptions.resumed`). */
  resume(handBack: RelayHandBack): void {
    this.#takeBack(handBack);
  }

  /**
   * Relayed → Ready: take over the relay's state, write what it could not send yet, read both sockets again and
   * handle the bytes it held (the question that made it stop comes first).
   */
  #takeBack(handBack: RelayHandBack): void {
    const context = this.#context;
    const { io, router, pendingReady } = context;
    if (context.state.step === ConnectionStep.Relayed) context.state = READY;
    context.options.hooks.onRelayed?.(false);
    if (isClosed(context.state)) return;
    pendingReady.restore(handBack.pendingReady);
    router.restoreForwardedSinceSync(handBack.forwardedSinceSync);
    context.session.readyStatus = handBack.readyStatus as ReadyStatus;
    router.copyIn.restore(handBack.copyIn, handBack.syncsAfterCommand);
    if (handBack.toUpstream !== undefined) io.writeUpstream(handBack.toUpstream);
    if (handBack.toClient !== undefined) io.writeClient(handBack.toClient);
    if (handBack.reason === "client-closed" || handBack.reason === "upstream-closed") {
      context.close(handBack.reason === "client-closed" ? "client closed" : "upstream closed");
      return;
    }
    this.#takingBack = true;
    try {
      resumeReading(io.client);
      if (io.upstream !== undefined) resumeReading(io.upstream);
      if (handBack.upstreamInput !== undefined) context.onUpstreamData(handBack.upstreamInput);
      if (handBack.clientInput !== undefined && !isClosed(context.state)) context.onClientData(handBack.clientInput);
    } finally {
      this.#takingBack = false;
    }
    if (handBack.reason === "client-ended" && !isClosed(context.state)) context.onClientEnded();
    context.closeIfFinished();
    this.relayIfIdle();
  }

  /**
   * Relayed → Ready on the way to Closed: takes the connection from the relay, with its state when it is at a message
   * boundary; else it is dropped (mid-message, a result was flowing, or its hand-back is already on its way) and
   * counted as a statement still running, so closing cancels it (a cancel for an idle session does nothing).
   */
  leave(): void {
    const context = this.#context;
    const state = context.state;
    if (state.step !== ConnectionStep.Relayed) return;
    context.state = READY;
    context.options.hooks.onRelayed?.(false);
    const handBack = state.relayed.releaseOrDetach();
    context.pendingReady.restore(handBack?.pendingReady ?? Math.max(1, context.pendingReady.count));
  }
}
