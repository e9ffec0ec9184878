import { connect as connectTcp } from "node:net";
import { serialize } from "pg-protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  answerWith,
  awaitProxyClose,
  connectionCountReaching,
  connectThroughProxy,
  startTestProxy,
  upstreamDatabase,
  upstreamHost,
  upstreamUser,
} from "./proxy.test-helpers";
import type { ProxyServer } from "./proxy-server";

let proxy: ProxyServer;

beforeAll(async () => {
  proxy = await startTestProxy((options) => answerWith(options, "select 1"), { clientLoginTimeoutMilliseconds: 300 });
});

afterAll(() => proxy?.close());

describe("client login timeout (NLQ_CLIENT_LOGIN_TIMEOUT_MS)", () => {
  it("closes a client that connects and sends nothing, freeing its connection slot", async () => {
    const socket = connectTcp({ host: upstreamHost, port: proxy.address.port });
    const { bytes, closedByProxy } = await awaitProxyClose(socket);
    expect(closedByProxy).toBe(true);
    expect(bytes).toHaveLength(0);
    expect(await connectionCountReaching(proxy, 0)).toBe(0);
  });

  it("closes a client that stalls within its startup packet", async () => {
    const socket = connectTcp({ host: upstreamHost, port: proxy.address.port });
    const closed = awaitProxyClose(socket);
    socket.write(serialize.startup({ user: upstreamUser, database: upstreamDatabase }).subarray(0, 6));
    expect((await closed).closedByProxy).toBe(true);
  });

  it("closes a client that stalls after its SSLRequest is answered N", async () => {
    const socket = connectTcp({ host: upstreamHost, port: proxy.address.port });
    const closed = awaitProxyClose(socket);
    socket.write(serialize.requestSsl());
    const { bytes, closedByProxy } = await closed;
    expect(closedByProxy).toBe(true);
    expect(bytes.toString("latin1")).toBe("N");
  });

  it("leaves a logged-in session alone past the timeout", async () => {
    const client = await connectThroughProxy(proxy);
    try {
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect((await client.query("select 1 as one")).rows).toEqual([{ one: 1 }]);
    } finally {
      await client.end();
    }
  });
});
