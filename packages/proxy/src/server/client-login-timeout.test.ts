import { connect as connectTcp } from "node:net";
import pg from "pg";
import { serialize } from "pg-protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  answerWith,
  awaitProxyClose,
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

/** The proxy's count of open connections once it reaches `expected` (polled: closing is asynchronous), else its last value. */
async function connectionCountReaching(expected: number): Promise<number> {
  for (let attempt = 0; attempt < 100 && proxy.connectionCount !== expected; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return proxy.connectionCount;
}

describe("client login timeout (NLQ_CLIENT_LOGIN_TIMEOUT_MS)", () => {
  it("closes a client that connects and sends nothing, freeing its connection slot", async () => {
    const socket = connectTcp({ host: upstreamHost, port: proxy.address.port });
    const { bytes, closedByProxy } = await awaitProxyClose(socket);
    expect(closedByProxy).toBe(true);
    expect(bytes).toHaveLength(0);
    expect(await connectionCountReaching(0)).toBe(0);
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
    const client = new pg.Client({
      host: upstreamHost,
      port: proxy.address.port,
      user: upstreamUser,
      database: upstreamDatabase,
    });
    await client.connect();
    try {
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect((await client.query("select 1 as one")).rows).toEqual([{ one: 1 }]);
    } finally {
      await client.end();
    }
  });
});
