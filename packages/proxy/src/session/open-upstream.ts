import type { Socket } from "node:net";
import { NlqError } from "@nlq/engine";
import { encodeErrorResponse } from "../protocol/backend-messages";
import type { ProxyLogger } from "../server/proxy-logger";

export interface OpenUpstreamOptions {
  /**
   * Opens the connection to the upstream server: a socket at once (plaintext, it connects in the background), or a
   * promise of one already connected (TLS negotiated per the upstream URL's `sslmode`), rejecting when it cannot be.
   */
  readonly connectUpstream: () => Socket | Promise<Socket>;
  /** The client socket, told with a FATAL 08006 when the upstream cannot be reached. */
  readonly client: () => Socket;
  readonly logger: ProxyLogger;
  /** Receives the upstream's bytes. */
  readonly onData: (chunk: Buffer) => void;
  /** The upstream socket closed. */
  readonly onClose: () => void;
}

/**
 * Opens the upstream socket (no Nagle delay) and wires its events: socket errors are logged, and one
 * before the connection was made ends the client with a FATAL 08006 ErrorResponse. Returns the socket at
 * once when `connectUpstream` does; else a promise of it, or of undefined when it failed (the client was told).
 */
export function openUpstream(options: OpenUpstreamOptions): Socket | Promise<Socket | undefined> {
  const opened = options.connectUpstream();
  if (!(opened instanceof Promise)) return wireUpstream(opened, options);
  return opened.then(
    (upstream) => wireUpstream(upstream, options),
    (error: unknown) => {
      const reason = NlqError.isInstance(error) ? `: ${error.message}` : "";
      options.logger.warn("could not open the upstream connection", { error });
      refuseClient(options, `nlq proxy could not connect to the upstream server${reason}`);
      return undefined;
    },
  );
}

/** Wires an open upstream socket's events (as `openUpstream` does); a parked session's resumed socket goes here too. */
export function wireUpstream(
  upstream: Socket,
  options: Pick<OpenUpstreamOptions, "client" | "logger" | "onData" | "onClose">,
): Socket {
  const { logger } = options;
  upstream.setNoDelay(true);
  let connected = !upstream.connecting;
  upstream.on("connect", () => {
    connected = true;
  });
  upstream.on("data", (chunk: Buffer) => options.onData(chunk));
  upstream.on("error", (error) => {
    logger.warn("upstream socket error", { error: error.message });
    if (!connected) refuseClient(options, "nlq proxy could not connect to the upstream server");
  });
  upstream.on("close", () => options.onClose());
  return upstream;
}

function refuseClient(options: Pick<OpenUpstreamOptions, "client">, message: string): void {
  const client = options.client();
  if (client.destroyed) return;
  client.end(encodeErrorResponse({ severity: "FATAL", code: "08006", message }));
}
