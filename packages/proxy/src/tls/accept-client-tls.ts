import type { Socket } from "node:net";
import { TLSSocket } from "node:tls";
import { ProtocolViolationError } from "../protocol/protocol-error";
import type { ClientTls } from "./client-tls";
import { ClientTlsTimeoutError } from "./client-tls-timeout-error";

/** First byte of a TLS handshake record: a client opening with it negotiates TLS directly (PostgreSQL 17+). */
export const TLS_HANDSHAKE_RECORD = 0x16;

/** The answer to an SSLRequest when TLS follows. */
export const ACCEPT_ENCRYPTION = Buffer.from("S", "latin1");

/** The ALPN protocol PostgreSQL 17+ clients and servers agree on; required with direct negotiation. */
export const POSTGRESQL_ALPN = "postgresql";

/** How TLS was asked for: an SSLRequest (answered `S` here), or a ClientHello sent first (its bytes in `firstChunk`). */
export type ClientTlsNegotiation =
  | { readonly kind: "ssl-request" }
  | { readonly kind: "direct"; readonly firstChunk: Buffer };

/**
 * Runs the server side of the TLS handshake on a client socket whose reading the caller has stopped listening to.
 * For an SSLRequest, `S` is written first; for direct negotiation the bytes already read (the start of the
 * ClientHello) are put back in front of the socket's input. Resolves with the encrypted socket once the handshake
 * is complete; rejects (and destroys it) when the handshake fails or, for direct negotiation, the client did not
 * agree on ALPN `postgresql` (as PostgreSQL requires). A handshake not complete `tls.handshakeTimeoutMilliseconds`
 * after it began (a client that sent an SSLRequest or the start of a ClientHello and then stalls) is abandoned: the
 * socket is destroyed and the promise rejects with `ClientTlsTimeoutError`, so the connection slot is freed.
 */
export function acceptClientTls(raw: Socket, tls: ClientTls, negotiation: ClientTlsNegotiation): Promise<TLSSocket> {
  raw.pause();
  return new Promise<TLSSocket>((resolve, reject) => {
    let secure: TLSSocket | undefined;
    const timer = setTimeout(() => {
      secure?.destroy();
      raw.destroy();
      reject(new ClientTlsTimeoutError(tls.handshakeTimeoutMilliseconds));
    }, tls.handshakeTimeoutMilliseconds);
    raw.once("close", () => clearTimeout(timer));
    const wrap = () => {
      const socket = new TLSSocket(raw, {
        isServer: true,
        secureContext: tls.secureContext,
        ALPNProtocols: [POSTGRESQL_ALPN],
      });
      secure = socket;
      const onError = (error: Error) => {
        clearTimeout(timer);
        socket.destroy();
        reject(error);
      };
      socket.once("error", onError);
      socket.once("secure", () => {
        clearTimeout(timer);
        socket.off("error", onError);
        if (negotiation.kind === "direct" && socket.alpnProtocol !== POSTGRESQL_ALPN) {
          socket.destroy();
          reject(
            new ProtocolViolationError(
              "received direct SSL connection request without ALPN protocol negotiation extension",
            ),
          );
          return;
        }
        resolve(socket);
      });
    };
    if (negotiation.kind === "direct") {
      raw.unshift(negotiation.firstChunk);
      wrap();
    } else {
      // Wrap once `S` is written; what the client sends meanwhile waits in the paused socket for the handshake.
      raw.write(ACCEPT_ENCRYPTION, (error) => {
        if (error) {
          clearTimeout(timer);
          reject(error);
        } else wrap();
      });
    }
  });
}
