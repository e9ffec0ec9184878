import { NlqError } from "@nlq/engine";

const upstreamTlsErrorMarker = Symbol.for("nlq.error.UpstreamTlsError");

/**
 * The proxy could not open its upstream connection as the upstream URL's `sslmode` asks (the server refused TLS, its
 * certificate did not verify, the handshake failed). SQLSTATE 08006 (connection_failure), sent to the client as FATAL.
 */
export class UpstreamTlsError extends NlqError {
  readonly [upstreamTlsErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is UpstreamTlsError {
    return NlqError.hasMarker(error, upstreamTlsErrorMarker);
  }

  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { code: "08006", ...options });
  }
}
