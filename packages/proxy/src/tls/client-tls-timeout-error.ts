import { NlqError } from "@nlq/engine";

const clientTlsTimeoutErrorMarker = Symbol.for("nlq.error.ClientTlsTimeoutError");

/**
 * A client did not complete its TLS handshake with the proxy in time (`NLQ_TLS_HANDSHAKE_TIMEOUT_MS`): it sent an
 * SSLRequest or the start of a ClientHello and then stalled. The connection is closed. SQLSTATE 08006
 * (connection_failure).
 */
export class ClientTlsTimeoutError extends NlqError {
  readonly [clientTlsTimeoutErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is ClientTlsTimeoutError {
    return NlqError.hasMarker(error, clientTlsTimeoutErrorMarker);
  }

  constructor(timeoutMilliseconds: number) {
    super(
      `the client did not complete the TLS handshake within ${timeoutMilliseconds} ms (NLQ_TLS_HANDSHAKE_TIMEOUT_MS)`,
      {
        code: "08006",
      },
    );
  }
}
