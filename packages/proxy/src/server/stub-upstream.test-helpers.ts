import { once } from "node:events";
import { type AddressInfo, createServer, type Server, type Socket } from "node:net";
import { encodeReadyForQuery } from "../protocol/backend-messages";
import { CANCEL_REQUEST_CODE } from "../protocol/frontend-messages";
import { type Answerer, startTestProxy } from "./proxy.test-helpers";
import type { ProxyServer, ProxyServerOptions } from "./proxy-server";

/** AuthenticationOk, BackendKeyData (process 7, key 9) and ReadyForQuery: a login as PostgreSQL with trust answers. */
const LOGIN_REPLY = Buffer.concat([
  Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 0]),
  Buffer.from([0x4b, 0, 0, 0, 12, 0, 0, 0, 7, 0, 0, 0, 9]),
  encodeReadyForQuery("I"),
]);

export interface StubUpstreamHandlers {
  /** Every chunk a logged-in connection sends after its startup message. */
  readonly onChunk: (chunk: Buffer, socket: Socket) => void;
  /** A connection whose first message is a CancelRequest (it is ended right after). */
  readonly onCancelRequest?: () => void;
}

export interface StubUpstream {
  readonly server: Server;
  readonly port: number;
  /** Stops listening; resolves once the server is closed. */
  readonly close: () => Promise<void>;
}

/**
 * A stub PostgreSQL server for tests of what the proxy does with odd upstream behaviour: logs anyone in (taking the
 * first chunk as the startup message) and hands every later chunk to `onChunk`.
 */
export async function startStubUpstream(handlers: StubUpstreamHandlers): Promise<StubUpstream> {
  const server = createServer((socket: Socket) => {
    let startup = true;
    socket.on("error", () => {});
    socket.on("data", (chunk: Buffer) => {
      if (!startup) {
        handlers.onChunk(chunk, socket);
        return;
      }
      startup = false;
      if (chunk.length >= 8 && chunk.readInt32BE(4) === CANCEL_REQUEST_CODE) {
        handlers.onCancelRequest?.();
        socket.end();
        return;
      }
      socket.write(LOGIN_REPLY);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A test proxy (startTestProxy) whose upstream is `stub`. */
export function startTestProxyBefore(
  stub: Pick<StubUpstream, "port">,
  answerQuestion: Answerer,
  overrides: Partial<ProxyServerOptions> = {},
): Promise<ProxyServer> {
  return startTestProxy(answerQuestion, { upstreamHost: "127.0.0.1", upstreamPort: stub.port, ...overrides });
}
