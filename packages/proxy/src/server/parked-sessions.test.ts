import { connect } from "node:net";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { encodeCancelRequest } from "../protocol/frontend-messages";
import {
  answerWith,
  backendsGone,
  connectionCountReaching,
  RawClient,
  startTestProxy,
  uniqueName,
  upstreamDatabase,
  upstreamHost,
  upstreamUser,
} from "./proxy.test-helpers";
import type { ProxyServer } from "./proxy-server";

const proxies: ProxyServer[] = [];
afterAll(async () => {
  await Promise.all(proxies.map((proxy) => proxy.close()));
});

async function proxyWithRelay(): Promise<ProxyServer> {
  const proxy = await startTestProxy((options) => answerWith(options, "select 42 as answer"), { nativeRelay: true });
  proxies.push(proxy);
  return proxy;
}

/** Waits until the proxy holds `count` parked sessions (a session parks once its last reply has been forwarded). */
async function untilParked(proxy: ProxyServer, count: number): Promise<number> {
  const deadline = Date.now() + 5_000;
  while (proxy.parkedCount !== count && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return proxy.parkedCount;
}

async function connectNamed(proxy: ProxyServer, name: string): Promise<pg.Client> {
  const client = new pg.Client({
    host: upstreamHost,
    port: proxy.address.port,
    user: upstreamUser,
    database: upstreamDatabase,
    application_name: name,
  });
  await client.connect();
  return client;
}

/** Sends a CancelRequest for `client`'s session through the proxy, as libpq's PQcancel does. */
function cancelThroughProxy(proxy: ProxyServer, client: pg.Client): Promise<void> {
  const { processID, secretKey } = client as unknown as { processID: number; secretKey: number };
  return new Promise((resolve, reject) => {
    const socket = connect(proxy.address.port, "127.0.0.1", () =>
      socket.end(encodeCancelRequest(processID, secretKey)),
    );
    socket.on("error", reject);
    socket.on("close", () => resolve());
  });
}

describe("parked sessions (idle sessions held by the native relay alone)", () => {
  it("parks a logged-in session, wakes it for a question, and parks it again after ordinary SQL", async () => {
    const proxy = await proxyWithRelay();
    const client = await connectNamed(proxy, uniqueName("nlq-parked"));
    try {
      expect(await untilParked(proxy, 1)).toBe(1);
      expect(proxy.connectionCount).toBe(1);
      expect((await client.query("select 1 as one")).rows).toEqual([{ one: 1 }]);
      // A question wakes it: a new connection on the same sockets answers, on the same upstream session.
      const pid = (await client.query("select pg_backend_pid() as pid")).rows[0].pid as number;
      expect((await client.query("/* nl: the answer? */")).rows).toEqual([{ answer: 42 }]);
      expect((await client.query("select pg_backend_pid() as pid")).rows[0].pid).toBe(pid);
      // After a question it follows up until ordinary SQL (watched here, not parked); parked again after it, with its
      // answer still pickable.
      expect((await client.query("select $1::int + 1 as two", [1])).rows).toEqual([{ two: 2 }]);
      expect(await untilParked(proxy, 1)).toBe(1);
      // The pick finds the answer the session parked with (it had no readings to pick from: the scripted answer's).
      await expect(client.query("/* nl#1 */;")).rejects.toThrow("the answer has no interpretations to pick from");
      expect((await client.query("select 2 as two")).rows).toEqual([{ two: 2 }]);
      expect(await untilParked(proxy, 1)).toBe(1);
      expect((await client.query("select 3 as three")).rows).toEqual([{ three: 3 }]);
      // Session state lives upstream: a SET before parking is still there after waking.
      await client.query("set application_name = 'nlq-parked-renamed'");
      expect(await untilParked(proxy, 1)).toBe(1);
      expect((await client.query("/* nl: the answer again? */")).rows).toEqual([{ answer: 42 }]);
      expect((await client.query("show application_name")).rows).toEqual([{ application_name: "nlq-parked-renamed" }]);
    } finally {
      await client.end();
    }
    expect(await connectionCountReaching(proxy, 0)).toBe(0);
    expect(proxy.parkedCount).toBe(0);
  });

  it("forwards a CancelRequest for a parked session's running statement", async () => {
    const proxy = await proxyWithRelay();
    const client = await connectNamed(proxy, uniqueName("nlq-parked-cancel"));
    try {
      expect(await untilParked(proxy, 1)).toBe(1);
      const running = client.query("select pg_sleep(30)").then(
        () => undefined,
        (error: { code?: string }) => error.code,
      );
      // The statement runs on a parked session: the relay forwards it without waking it.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(proxy.parkedCount).toBe(1);
      await cancelThroughProxy(proxy, client);
      expect(await running).toBe("57014");
      expect((await client.query("select 1 as one")).rows).toEqual([{ one: 1 }]);
    } finally {
      await client.end();
    }
  });

  it("closes while a parked session's hand-back is on its way (its client has just gone)", async () => {
    const proxy = await startTestProxy((options) => answerWith(options, "select 1"), { nativeRelay: true });
    const client = new RawClient(proxy.address.port);
    await client.startup(uniqueName("nlq-parked-gone"));
    expect(await untilParked(proxy, 1)).toBe(1);
    client.socket.destroy();
    // The woken session closes in its resumption: the server hears of it and closing resolves (a bound, not a timing).
    const closed = await Promise.race([
      proxy.close().then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 20_000)),
    ]);
    expect(closed).toBe(true);
    expect(proxy.connectionCount).toBe(0);
  });

  it("closes when a parked session's client stops mid-message and stays: the grace period ends it", async () => {
    const proxy = await startTestProxy((options) => answerWith(options, "select 1"), { nativeRelay: true });
    const client = new RawClient(proxy.address.port);
    await client.startup(uniqueName("nlq-parked-half"));
    expect(await untilParked(proxy, 1)).toBe(1);
    // The first 5 bytes of a Query: the relay holds the session until the message ends, which it never does.
    client.socket.write(Buffer.from([0x51, 0x00, 0x00, 0x00, 0x20]));
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Every socket the server accepted is closed already (the session's were, when it parked): closing must still
    // wait out the grace period and end the session, not wait for the client (a bound, not a timing).
    const closed = await Promise.race([
      proxy.close().then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 20_000)),
    ]);
    expect(closed).toBe(true);
    expect(proxy.connectionCount).toBe(0);
    client.socket.destroy();
  });

  it("closes a parked session's upstream when its client goes, and shuts parked sessions down with FATAL 57P01", async () => {
    const proxy = await proxyWithRelay();
    const leaving = uniqueName("nlq-parked-leaving");
    const gone = await connectNamed(proxy, leaving);
    const staying = await connectNamed(proxy, uniqueName("nlq-parked-shutdown"));
    const errors: Array<{ code?: string }> = [];
    staying.on("error", (error) => errors.push(error as { code?: string }));
    expect(await untilParked(proxy, 2)).toBe(2);
    await gone.end();
    expect(await backendsGone(leaving)).toBe(true);
    expect(await connectionCountReaching(proxy, 1)).toBe(1);
    await proxy.close();
    expect(proxy.connectionCount).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(errors[0]?.code).toBe("57P01");
    await staying.end().catch(() => undefined);
  });
});
