import { NlqError } from "@nlq/engine";

/**
 * The proxy could not open its upstream connection as the upstream URL's `sslmode` asks (the server refused TLS, its
 * certificate did not verify, the handshake failed). SQLSTATE 08006 (connection_failure), sent to the client as FATAL.
 */
export class UpstreamTlsError extends NlqError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { code: "08006", ...options });
  }
}
