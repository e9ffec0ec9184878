import type { Socket } from "node:net";
import type { ProxyLogger } from "../server/proxy-logger";
import type { BackendKey } from "./proxy-connection-options";

/** How long a closed connection's client may still read what was sent before its socket is destroyed. */
const CLIENT_LINGER_MILLISECONDS = 1_000;

export interface LeaveNothingBehindOptions {
  readonly client: Socket;
  readonly upstream: Socket | undefined;
  /** The session's key when a statement may still run upstream (it is cancelled); undefined otherwise. */
  readonly cancelKey: BackendKey | undefined;
  readonly cancelUpstream: (key: BackendKey) => void;
  readonly logger: ProxyLogger;
}

/**
 * Tears a closed connection down so that nothing is left upstream: a running statement is cancelled
 * (CancelRequest with the session's BackendKeyData), and the upstream socket is destroyed, not ended (a
 * half-closed socket with unread data would leave the backend blocked in ClientWrite). The client may
 * read what was already sent for a second, then its socket is destroyed too.
 */
export function leaveNothingBehind(options: LeaveNothingBehindOptions): void {
  const { client, cancelKey } = options;
  if (cancelKey !== undefined) {
    try {
      options.cancelUpstream(cancelKey);
    } catch (error) {
      options.logger.warn("could not cancel the upstream statement", { error });
    }
  }
  options.upstream?.destroy();
  if (!client.destroyed) {
    client.end();
    setTimeout(() => client.destroy(), CLIENT_LINGER_MILLISECONDS).unref();
  }
}
