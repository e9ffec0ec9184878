import { serialize } from "pg-protocol";
import { afterAll, describe, expect, it } from "vitest";
import { answerWith, type Message, RawClient, startTestProxy, uniqueName, upstreamPort } from "./proxy.test-helpers";
import type { ProxyServer } from "./proxy-server";

const proxies: ProxyServer[] = [];
afterAll(async () => {
  await Promise.all(proxies.map((proxy) => proxy.close()));
});

const readyCount = (messages: readonly Message[]) => messages.filter((m) => m.name === "readyForQuery").length;

/** In COPY FROM STDIN, sends CopyData and a Query holding the marker: what the client receives from the COPY on. */
async function questionDuringCopy(port: number): Promise<Message[]> {
  const client = new RawClient(port);
  await client.startup(uniqueName("nlq-copy-question"));
  client.socket.write(serialize.query("create temp table copied (n int)"));
  await client.waitFor((messages) => readyCount(messages) === 2, "create table");
  const from = client.messages.length;
  client.socket.write(serialize.query("copy copied from stdin"));
  await client.waitFor((messages) => messages.some((m) => m.name === "copyInResponse"), "CopyInResponse");
  client.socket.write(
    Buffer.concat([serialize.copyData(Buffer.from("1\n")), serialize.query("-- nl: how many rows?")]),
  );
  const closed = await Promise.race([
    client.closed.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000)),
  ]);
  client.socket.destroy();
  if (!closed) throw new Error("the connection hung after a question during COPY FROM STDIN");
  return client.messages.slice(from);
}

const shape = (messages: readonly Message[]) =>
  messages.map((message) =>
    message.name === "error" ? `${String(message.severity)} ${String(message.code)}` : message.name,
  );

// PostgreSQL reads every message during COPY FROM STDIN as part of the COPY: a Query is "unexpected message type
// 0x51 during COPY from stdin" (ERROR 08P01), then "protocol synchronization was lost" (FATAL 08P01), and it closes.
describe("a question sent during COPY FROM STDIN", () => {
  it("is a protocol violation of the COPY in PostgreSQL itself (08P01), which ends the session", async () => {
    expect(shape(await questionDuringCopy(upstreamPort))).toEqual(["copyInResponse", "ERROR 08P01", "FATAL 08P01"]);
  });

  it.each([false, true])(
    "is answered the same through the proxy, without hanging (native relay %s)",
    async (relayOn) => {
      const proxy = await startTestProxy((options) => answerWith(options, "select 42 as answer"), {
        nativeRelay: relayOn,
      });
      proxies.push(proxy);
      const direct = await questionDuringCopy(upstreamPort);
      const proxied = await questionDuringCopy(proxy.address.port);
      expect(shape(proxied)).toEqual(shape(direct));
    },
  );
});
