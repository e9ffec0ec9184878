import { afterAll, describe, expect, it } from "vitest";
import { answerWith, connectThroughProxy, startTestProxy } from "../server/proxy.test-helpers";
import type { ProxyServer } from "../server/proxy-server";
import { nativeRelay } from "./native-relay";

const proxies: ProxyServer[] = [];
afterAll(async () => {
  await Promise.all(proxies.map((proxy) => proxy.close()));
});

async function proxyWith(nativeRelayOn: boolean): Promise<ProxyServer> {
  const proxy = await startTestProxy((options) => answerWith(options, "select 42 as answer"), {
    nativeRelay: nativeRelayOn,
  });
  proxies.push(proxy);
  return proxy;
}

/** Waits until the relay holds `count` connections (it adopts one once its last reply has been forwarded). */
async function untilAdopted(count: number): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (nativeRelay()!.adoptedCount !== count && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(nativeRelay()!.adoptedCount).toBe(count);
}

describe("the proxy with the native relay", () => {
  it("hands a logged-in connection to the relay, and takes it back for a question and for closing", async () => {
    const proxy = await proxyWith(true);
    const before = nativeRelay()!.adoptedCount;
    const client = await connectThroughProxy(proxy);
    await untilAdopted(before + 1);
    expect((await client.query("select 1 as one")).rows).toEqual([{ one: 1 }]);
    expect((await client.query("/* nl: the answer? */")).rows).toEqual([{ answer: 42 }]);
    // After a question the connection stays here until its next ordinary statement, which ends the follow-ups.
    expect((await client.query("select $1::int + 1 as two", [1])).rows).toEqual([{ two: 2 }]);
    await untilAdopted(before + 1);
    expect((await client.query("select 3 as three")).rows).toEqual([{ three: 3 }]);
    await client.end();
    await untilAdopted(before);
  });

  it("streams large results intact after small ones, on connections the relay holds", async () => {
    const proxy = await proxyWith(true);
    const client = await connectThroughProxy(proxy);
    try {
      for (let round = 0; round < 3; round++) {
        expect((await client.query("select 1 as one")).rows).toEqual([{ one: 1 }]);
        const large = await client.query(
          "select g, repeat('x', 100) as pad from generate_series(1, 20000) g order by g",
        );
        expect(large.rowCount).toBe(20_000);
        expect(large.rows[19_999]).toEqual({ g: 20_000, pad: "x".repeat(100) });
      }
    } finally {
      await client.end();
    }
  });

  it("keeps every byte in JavaScript with nativeRelay off", async () => {
    const proxy = await proxyWith(false);
    const before = nativeRelay()!.adoptedCount;
    const client = await connectThroughProxy(proxy);
    expect((await client.query("select 1 as one")).rows).toEqual([{ one: 1 }]);
    expect(nativeRelay()!.adoptedCount).toBe(before);
    await client.end();
  });
});
