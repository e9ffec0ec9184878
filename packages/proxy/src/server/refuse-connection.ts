import type { Socket } from "node:net";
import { encodeErrorResponse } from "../protocol/backend-messages";
import { readStartupPacket } from "../protocol/frontend-messages";
import { MessageFramer } from "../protocol/message-framer";
import type { BackendKey } from "../session/proxy-connection-options";

/** PostgreSQL's own answer when `max_connections` is reached (SQLSTATE 53300, too_many_connections). */
export const TOO_MANY_CLIENTS = {
  severity: "FATAL",
  code: "53300",
  message: "sorry, too many clients already",
} as const;

/**
 * Answers a client beyond the connection cap as PostgreSQL does: it reads the startup packet (refusing
 * SSLRequest and GSSENCRequest with `N` first), then sends FATAL 53300 and closes. A CancelRequest is still
 * forwarded (`onCancelRequest`), as PostgreSQL serves cancels whatever the number of sessions. No upstream
 * connection is opened. A client that has not sent its startup packet after `loginTimeoutMilliseconds`
 * (`NLQ_CLIENT_LOGIN_TIMEOUT_MS`) is dropped.
 */
export function refuseConnection(
  client: Socket,
  onCancelRequest: (key: BackendKey) => void,
  loginTimeoutMilliseconds: number,
): void {
  const framer = new MessageFramer({ inspect: () => true, startup: true });
  const timer = setTimeout(() => client.destroy(), loginTimeoutMilliseconds);
  const finish = (reply?: Buffer) => {
    clearTimeout(timer);
    client.removeAllListeners("data");
    if (reply === undefined) client.end();
    else client.end(reply);
  };
  // The server is half-open (a client may end its input and still read): one that ends before its packet is done.
  client.on("end", () => finish());
  client.on("error", () => clearTimeout(timer));
  client.on("close", () => clearTimeout(timer));
  client.on("data", (chunk: Buffer) => {
    try {
      framer.push(chunk, (segment) => {
        if (segment.kind !== "message") return;
        const packet = readStartupPacket(segment.message);
        if (packet.kind === "ssl-request" || packet.kind === "gssenc-request") {
          client.write("N");
          framer.expectStartupPacket();
        } else if (packet.kind === "cancel-request") {
          onCancelRequest({ processId: packet.processId, secretKey: packet.secretKey });
          finish();
        } else {
          finish(encodeErrorResponse(TOO_MANY_CLIENTS));
        }
      });
    } catch {
      client.destroy(); // Not a startup packet: nothing to answer.
    }
  });
}
