import { connect } from "node:net";

/**
 * True when a TCP connection to `host:port` opens within `timeoutMilliseconds` (then closed at once); false on
 * an error or the timeout. Never throws.
 */
export function upstreamReachable(host: string, port: number, timeoutMilliseconds = 2_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const finish = (reachable: boolean) => {
      socket.destroy();
      resolve(reachable);
    };
    socket.setTimeout(timeoutMilliseconds, () => finish(false));
    socket.once("connect", () => finish(true));
    socket.once("error", () => finish(false));
  });
}
