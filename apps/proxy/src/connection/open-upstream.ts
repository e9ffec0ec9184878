import type { Socket } from "node:net";
import { encodeErrorResponse } from "../protocol/backend-messages";
import type { ProxyLogger } from "../server/proxy-logger";

export interface OpenUpstreamOptions {
  /** Opens the TCP connection to the upstream server. */
  readonly connectUpstream: () => Socket;
  /** The client socket, told with a FATAL 08006 when the upstream cannot be reached. */
  readonly client: Socket;
  readonly logger: ProxyLogger;
  /** Receives the upstream's bytes. */
  readonly onData: (chunk: Buffer) => void;
  /** The upstream socket closed. */
  readonly onClose: () => void;
}

/**
 * Opens the upstream socket (no Nagle delay) and wires its events: socket errors are logged, and one
 * before the connection was made ends the client with a FATAL 08006 ErrorResponse.
 */
export function openUpstream(options: OpenUpstreamOptions): Socket {
  const { client, logger } = options;
  const upstream = options.connectUpstream();
  upstream.setNoDelay(true);
  let connected = false;
  upstream.on("connect", () => {
    connected = true;
  });
  upstream.on("data", (chunk: Buffer) => options.onData(chunk));
  upstream.on("error", (error) => {
    logger.warn("upstream socket error", { error: error.message });
    if (!connected && !client.destroyed) {
      client.end(
        encodeErrorResponse({
          severity: "FATAL",
          code: "08006",
          message: "nlq proxy could not connect to the upstream server",
        }),
      );
    }
  });
  upstream.on("close", () => options.onClose());
  return upstream;
}
