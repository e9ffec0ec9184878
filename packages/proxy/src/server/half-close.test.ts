import { serialize } from "pg-protocol";
import { afterAll, describe, expect, it } from "vitest";
import {
  type Answerer,
  answerWith,
  backendsGone,
  RawClient,
  startTestProxy,
  uniqueName,
  upstreamPort,
} from "./proxy.test-helpers";
import type { ProxyServer } from "./proxy-server";

const proxies: ProxyServer[] = [];
afterAll(async () => {
  await Promise.all(proxies.map((proxy) => proxy.close()));
});

async function proxyWith(
  nativeRelay: boolean,
  answerQuestion: Answerer = (options) => answerWith(options, "select 42 as answer"),
): Promise<ProxyServer> {
  const proxy = await startTestProxy(answerQuestion, { nativeRelay });
  proxies.push(proxy);
  return proxy;
}

/**
 * A model call still under way when the client half-closes, however loaded the machine: it ends only when the question
 * is abandoned (its abort signal; `stoppedBy` receives the reason), and otherwise answers `select 42` after a bound far
 * past the half-close, so that the test fails on the DataRow rather than hanging. (An answer that takes one round trip
 * may finish before the proxy reads the client's end of stream: once the native relay has handed the question back,
 * that end is read in a later turn of the event loop, after the answer's reply if PostgreSQL was faster; then the answer
 * is rightly sent, as it would be to a client that half-closed a moment later.)
 */
function answerOnlyIfNotAbandoned(stoppedBy: unknown[]): Answerer {
  return async (options) => {
    const signal = options.abortSignal;
    await new Promise<void>((resolve) => {
      const bound = setTimeout(resolve, 10_000);
      const stop = () => {
        clearTimeout(bound);
        resolve();
      };
      if (signal?.aborted === true) stop();
      else signal?.addEventListener("abort", stop, { once: true });
    });
    if (signal?.aborted === true) {
      stoppedBy.push(signal.reason);
      throw signal.reason;
    }
    return answerWith(options, "select 42 as answer");
  };
}

/** Sends `query` then shuts down the client's sending side; resolves with what arrived once the server closed. */
async function queryThenHalfClose(port: number, name: string, query: string): Promise<RawClient> {
  const client = new RawClient(port);
  await client.startup(name);
  client.socket.write(serialize.query(query));
  client.socket.end();
  await Promise.race([client.closed, new Promise((resolve) => setTimeout(resolve, 20_000))]);
  return client;
}

const names = (client: RawClient) => client.messages.map((message) => message.name);

describe("a client that shuts down its sending side after a query (half-close)", () => {
  it("gets its result from PostgreSQL itself, then the connection closes", async () => {
    const direct = await queryThenHalfClose(
      upstreamPort,
      uniqueName("nlq-half-direct"),
      "select pg_sleep(0.3), 7 as n",
    );
    expect(names(direct).slice(-4)).toEqual(["rowDescription", "dataRow", "commandComplete", "readyForQuery"]);
  });

  it.each([false, true])("gets the same result through the proxy (native relay %s)", async (relayOn) => {
    const proxy = await proxyWith(relayOn);
    const name = uniqueName("nlq-half-proxy");
    const client = await queryThenHalfClose(proxy.address.port, name, "select pg_sleep(0.3), 7 as n");
    expect(names(client).slice(-4)).toEqual(["rowDescription", "dataRow", "commandComplete", "readyForQuery"]);
    expect(client.messages.find((message) => message.name === "dataRow")).toMatchObject({ fields: ["", "7"] });
    expect(await backendsGone(name)).toBe(true);
  });

  it.each([false, true])("has a question it sent abandoned, as on a disconnect (native relay %s)", async (relayOn) => {
    const stoppedBy: unknown[] = [];
    const proxy = await proxyWith(relayOn, answerOnlyIfNotAbandoned(stoppedBy));
    const client = await queryThenHalfClose(proxy.address.port, uniqueName("nlq-half-question"), "/* nl: answer? */");
    // The question's model calls stop (a client gone and one half-closed look the same); it fails with 57014.
    expect(stoppedBy).toEqual([
      expect.objectContaining({ code: "57014", message: expect.stringContaining("the client ended its input") }),
    ]);
    expect(client.messages.some((message) => message.name === "dataRow")).toBe(false);
    expect(client.messages.find((message) => message.name === "error")).toMatchObject({ code: "57014" });
    expect(names(client).at(-1)).toBe("readyForQuery");
  });

  it.each([false, true])(
    "ends a COPY FROM STDIN it left open as PostgreSQL does, and leaves no backend (native relay %s)",
    async (relayOn) => {
      const proxy = await proxyWith(relayOn);
      const copyThenEnd = async (port: number, name: string) => {
        const client = new RawClient(port);
        await client.startup(name);
        client.socket.write(serialize.query("create temp table nothing (n int); copy nothing from stdin"));
        await client.waitFor((messages) => messages.some((m) => m.name === "copyInResponse"), "CopyInResponse");
        client.socket.end(serialize.copyData(Buffer.from("1\n")));
        await Promise.race([client.closed, new Promise((resolve) => setTimeout(resolve, 20_000))]);
        return client.messages.map((m) => (m.name === "error" ? `${String(m.severity)} ${String(m.code)}` : m.name));
      };
      const direct = await copyThenEnd(upstreamPort, uniqueName("nlq-half-copy-direct"));
      const name = uniqueName("nlq-half-copy");
      const proxied = await copyThenEnd(proxy.address.port, name);
      // PostgreSQL: FATAL 08P01 "unexpected EOF on client connection with an open transaction", and it ends.
      expect(direct.at(-1)).toBe("FATAL 08P01");
      expect(proxied.slice(-3)).toEqual(direct.slice(-3));
      expect(await backendsGone(name)).toBe(true);
    },
  );
});
