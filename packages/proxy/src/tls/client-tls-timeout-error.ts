import { NlqError } from "@nlq/engine";

/**
 * A client did not complete its TLS handshake with the proxy in time (`NLQ_TLS_HANDSHAKE_TIMEOUT_MS`): it sent an
 * SSLRequest or the start of a ClientHello and then stalled. The connection is closed. SQLSTATE 08006
 * (connection_failure).
 */
export class ClientTlsTimeoutError extends NlqError {
  constructor(timeoutMilliseconds: number) {
    super(
      `the client did not complete the TLS handshake within ${timeoutMilliseconds} ms (NLQ_TLS_HANDSHAKE_TIMEOUT_MS)`,
      {
        code: "08006",
      },
    );
  }
}
