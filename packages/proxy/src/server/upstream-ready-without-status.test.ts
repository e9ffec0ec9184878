import { once } from "node:events";
import { type AddressInfo, createServer, type Server, type Socket } from "node:net";
import { serialize } from "pg-protocol";
import { afterAll, describe, expect, it } from "vitest";
import { encodeCommandComplete, encodeReadyForQuery } from "../protocol/backend-messages";
import { answerWith, RawClient, startTestProxy } from "./proxy.test-helpers";
import type { ProxyServer } from "./proxy-server";

/**
 * A stub PostgreSQL server: logs anyone in, then answers every Query with CommandComplete and a ReadyForQuery that has
 * no status byte (length 4), which libpq takes as a protocol violation.
 */
async function startStubUpstream() {
  const server: Server = createServer((socket: Socket) => {
    let startup = true;
    socket.on("error", () => {});
    socket.on("data", (chunk: Buffer) => {
      if (startup) {
        startup = false;
        const backendKey = Buffer.from([0x4b, 0, 0, 0, 12, 0, 0, 0, 7, 0, 0, 0, 9]);
        socket.write(
          Buffer.concat([Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 0]), backendKey, encodeReadyForQuery("I")]),
        );
        return;
      }
      if (chunk[0] === 0x51)
        socket.write(Buffer.concat([encodeCommandComplete("SELECT 0"), Buffer.from([0x5a, 0, 0, 0, 4])]));
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { server, port: (server.address() as AddressInfo).port };
}

const closers: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const close of closers) await close();
});

describe("an upstream ReadyForQuery without its status byte (relay-rules.vectors.json)", () => {
  it.each([false, true])(
    "ends the connection with FATAL 08P01 instead of passing it on (native relay %s)",
    async (relayOn) => {
      const stub = await startStubUpstream();
      const proxy: ProxyServer = await startTestProxy((options) => answerWith(options, "select 1"), {
        upstreamHost: "127.0.0.1",
        upstreamPort: stub.port,
        nativeRelay: relayOn,
      });
      closers.push(
        () => proxy.close(),
        () => new Promise((resolve) => stub.server.close(resolve)),
      );
      const client = new RawClient(proxy.address.port);
      await client.startup("ready-without-status");
      client.socket.write(serialize.query("select 1"));
      await client.closed;
      const error = client.messages.find((message) => message.name === "error");
      expect(error?.code).toBe("08P01");
      expect(error?.severity).toBe("FATAL");
      // Only the ReadyForQuery of the login reached the client.
      expect(client.count("readyForQuery")).toBe(1);
    },
    30_000,
  );
});
