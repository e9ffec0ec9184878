import { REFUSE_ENCRYPTION } from "../protocol/backend-messages";
import { readStartupPacket } from "../protocol/frontend-messages";
import { ProtocolViolationError } from "../protocol/protocol-error";
import { acceptClientTls, type ClientTlsNegotiation, TLS_HANDSHAKE_RECORD } from "../tls/accept-client-tls";
import type { AuthenticationExchange } from "./authentication-exchange";
import type { ConnectionContext } from "./connection-context";
import type { ClientSocketEvents } from "./connection-io";
import { isClosed } from "./connection-state";
import { ConnectionStep } from "./connection-step";
import { DATA_BEFORE_TLS, ENCRYPTION_REQUIRED } from "./fatal-notices";

/**
 * The startup handshake: the first state of every connection.
 *
 * - **AwaitingStartup** accepts one untyped startup packet: an SSLRequest (answered `N` without TLS, or `S` and the
 *   handshake starts → NegotiatingClientTls), a GSSENCRequest (answered `N`), a CancelRequest (passed to the server,
 *   then the socket ends), or the StartupMessage (→ the authentication exchange, `authentication-exchange.ts`: the
 *   proxy's own SCRAM, or the upstream opened at once). A TLS ClientHello sent first (PostgreSQL 17's direct TLS)
 *   starts the handshake too.
 * - **NegotiatingClientTls** accepts no client byte: bytes after an SSLRequest are refused (FATAL 08P01); once the
 *   handshake completes, the TLS socket replaces the raw one and the connection is AwaitingStartup again.
 */
export class StartupHandshake {
  readonly #context: ConnectionContext;
  readonly #authentication: AuthenticationExchange;
  readonly #clientEvents: ClientSocketEvents;

  constructor(context: ConnectionContext, authentication: AuthenticationExchange, clientEvents: ClientSocketEvents) {
    this.#context = context;
    this.#authentication = authentication;
    this.#clientEvents = clientEvents;
  }

  /** The chunk opens PostgreSQL 17's direct TLS negotiation (a ClientHello instead of an SSLRequest). */
  startsDirectTls(chunk: Buffer): boolean {
    const { state, options, io, clientFramer } = this.#context;
    return (
      state.step === ConnectionStep.AwaitingStartup &&
      chunk[0] === TLS_HANDSHAKE_RECORD &&
      options.clientTls !== undefined &&
      !io.clientEncrypted &&
      clientFramer.atBoundary
    );
  }

  /** One startup packet (AwaitingStartup). */
  onStartupPacket(packet: Buffer): void {
    const { options, io, clientFramer } = this.#context;
    const startup = readStartupPacket(packet);
    switch (startup.kind) {
      case "ssl-request":
        if (io.clientEncrypted) throw new ProtocolViolationError("SSLRequest on a connection already encrypted");
        if (options.clientTls === undefined) {
          io.client.write(REFUSE_ENCRYPTION);
          clientFramer.expectStartupPacket();
        } else {
          // The handshake starts once this chunk is framed: any byte after the SSLRequest in it is refused.
          this.#context.state = { step: ConnectionStep.NegotiatingClientTls };
        }
        break;
      case "gssenc-request":
        io.client.write(REFUSE_ENCRYPTION);
        clientFramer.expectStartupPacket();
        break;
      case "cancel-request":
        options.hooks.onCancelRequest({ processId: startup.processId, secretKey: startup.secretKey });
        io.client.end();
        break;
      case "startup-message": {
        options.hooks.onStartupMessage?.(packet);
        if (options.clientTls?.required && !io.clientEncrypted) {
          this.#context.terminate(ENCRYPTION_REQUIRED, "unencrypted startup refused");
          break;
        }
        if (options.authSource !== undefined) {
          this.#authentication.authenticateClient(packet, options.authSource);
          break;
        }
        this.#authentication.openUpstream(packet);
        break;
      }
    }
  }

  /**
   * Runs the TLS handshake on the client socket (after `S`, or on a ClientHello sent first), then expects the
   * StartupMessage over TLS. A failed handshake closes the connection.
   */
  startClientTls(negotiation: ClientTlsNegotiation): void {
    const context = this.#context;
    const raw = context.io.client;
    context.state = { step: ConnectionStep.NegotiatingClientTls };
    raw.off("data", this.#clientEvents.data);
    acceptClientTls(raw, context.options.clientTls!, negotiation).then(
      (secure) => {
        if (isClosed(context.state)) {
          secure.destroy();
          return;
        }
        context.io.encryptClient(secure);
        context.state = { step: ConnectionStep.AwaitingStartup };
        context.clientFramer.expectStartupPacket();
        context.io.listenToClient(secure, this.#clientEvents);
        context.closeIfFinished();
      },
      (error: unknown) => {
        context.options.logger.warn("TLS handshake with the client failed", {
          error: error instanceof Error ? error.message : String(error),
        });
        raw.destroy();
        context.close("client TLS handshake failed");
      },
    );
  }

  /**
   * Bytes that followed an SSLRequest before the handshake: refused, as PostgreSQL does since CVE-2021-23214 (they
   * could have been injected by a man in the middle and would be taken as sent over TLS).
   */
  refuseDataBeforeTls(): void {
    this.#context.terminate(DATA_BEFORE_TLS, "unencrypted data after SSLRequest");
  }
}
