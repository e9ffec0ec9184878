import { type AddressInfo, connect, createServer } from "node:net";
import { serialize } from "pg-protocol";
import { afterAll, describe, expect, it } from "vitest";
import {
  type Answerer,
  answerWith,
  RawClient,
  selectOne,
  startTestProxy,
  uniqueName,
  upstreamHost,
  upstreamPort,
} from "../server/proxy.test-helpers";
import { silentLogger } from "../server/proxy-logger";
import { ProxyConnection } from "./proxy-connection";
import type { ProxySettings } from "./proxy-connection-options";

const answerOne: Answerer = (options) => answerWith(options, "select 1 as n");
const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of closers) await close();
});

describe("a malformed message (reproduction 2)", () => {
  it("closes only the client that sent it, with a FATAL 08P01; the proxy keeps serving", async () => {
    const proxy = await startTestProxy(answerOne);
    closers.push(() => proxy.close());
    const client = new RawClient(proxy.address.port);
    await client.startup(uniqueName("nlq-crash"));
    client.socket.write(
      Buffer.concat([
        serialize.parse({ name: "q1", text: "/* nl: how many rows? */" }),
        serialize.sync(),
        Buffer.from([0x42, 0x00, 0x00, 0x00, 0x05, 0x00]),
      ]),
    );
    await client.closed;
    const fatal = client.messages.find((message) => message.name === "error");
    expect(fatal).toMatchObject({ severity: "FATAL", code: "08P01" });
    expect(await selectOne(proxy)).toBe(1);
  });

  it("closes a client whose malformed message arrives while no question runs, too", async () => {
    const proxy = await startTestProxy(answerOne);
    closers.push(() => proxy.close());
    const client = new RawClient(proxy.address.port);
    await client.startup(uniqueName("nlq-crash"));
    // A Query holding a question but no NUL terminator.
    const text = Buffer.from("/* nl: how many? */");
    client.socket.write(Buffer.concat([Buffer.from([0x51, 0, 0, 0, 4 + text.length]), text]));
    await client.closed;
    expect(client.messages.find((message) => message.name === "error")).toMatchObject({ code: "08P01" });
    expect(await selectOne(proxy)).toBe(1);
  });
});

describe("a question's extended-protocol batch", () => {
  it("is bounded: a client that never sends Sync is closed with FATAL 54000 once the batch passes the limit", async () => {
    const proxy = await startTestProxy(answerOne, { clientQueueLimitBytes: 4096 });
    closers.push(() => proxy.close());
    const client = new RawClient(proxy.address.port);
    await client.startup(uniqueName("nlq-batch"));
    const binds = Array.from({ length: 200 }, () => serialize.bind({ statement: "q1", values: ["x".repeat(100)] }));
    client.socket.write(Buffer.concat([serialize.parse({ name: "q1", text: "/* nl: how many? */" }), ...binds]));
    await client.closed;
    expect(client.messages.find((message) => message.name === "error")).toMatchObject({
      severity: "FATAL",
      code: "54000",
    });
    expect(await selectOne(proxy)).toBe(1);
  });
});

describe("client input while a question is answered (reproduction 7)", () => {
  it("stops reading the client above the queue limit and still answers every pipelined statement in order", async () => {
    const limit = 64 * 1024;
    let releaseAnswer: () => void = () => {};
    const answerReleased = new Promise<void>((resolve) => {
      releaseAnswer = resolve;
    });
    const connections: ProxyConnection[] = [];
    const server = createServer((socket) => {
      connections.push(
        new ProxyConnection({
          client: socket,
          connectUpstream: () => connect({ host: upstreamHost, port: upstreamPort }),
          cancelUpstream: () => {},
          marker: "nl:",
          answerQuestion: async (options) => {
            await answerReleased;
            return answerWith(options, "select 0 as n");
          },
          settings: {} as ProxySettings,
          clientQueueLimitBytes: limit,
          logger: silentLogger,
          hooks: { onCancelRequest: () => {}, onBackendKey: () => {}, onClose: () => {} },
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    const client = new RawClient((server.address() as AddressInfo).port);
    await client.startup(uniqueName("nlq-queue"));
    const padding = "x".repeat(8 * 1024);
    const statements = 600; // about 4.9 MB behind the question
    const pipeline = [serialize.query("/* nl: wait for me */")];
    for (let index = 1; index <= statements; index++)
      pipeline.push(serialize.query(`select ${index} /* ${padding} */`));
    const largestMessage = Math.max(...pipeline.map((message) => message.length));
    client.socket.write(Buffer.concat(pipeline));
    const connection = connections[0]!;
    // Wait until the proxy has stopped reading (the queue went over its limit), then give the client time to push more.
    const deadline = Date.now() + 20_000;
    while (connection.peakQueuedClientBytes <= limit && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    releaseAnswer();
    await client.waitFor(
      (messages) => messages.filter((message) => message.name === "readyForQuery").length === statements + 2,
      "every ReadyForQuery",
    );
    // One socket read (at most 64 KiB) may arrive after the pause, plus the message it ends inside.
    expect(connection.peakQueuedClientBytes).toBeGreaterThan(limit);
    expect(connection.peakQueuedClientBytes).toBeLessThanOrEqual(limit + 64 * 1024 + largestMessage);
    const values = client.messages
      .filter((message) => message.name === "dataRow")
      .map((message) => Number((message.fields as string[])[0]));
    expect(values).toEqual([0, ...Array.from({ length: statements }, (_, index) => index + 1)]);
    client.socket.destroy();
  });
});
