import { type AddressInfo, connect, createServer, type Socket } from "node:net";
import { serialize } from "pg-protocol";
import { afterAll, describe, expect, it } from "vitest";
import { answerWith, RawClient, uniqueName, upstreamHost, upstreamPort } from "../server/proxy.test-helpers";
import { silentLogger } from "../server/proxy-logger";
import { ProxyConnection } from "./proxy-connection";
import type { ProxySettings } from "./proxy-connection-options";

const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of closers) await close();
});

/** Counts the calls of `socket.write` (the proxy's writes toward that socket). */
function countWrites(socket: Socket): { readonly writes: Buffer[] } {
  const recorded = { writes: [] as Buffer[] };
  const write = socket.write.bind(socket) as (bytes: Buffer) => boolean;
  socket.write = ((bytes: Buffer) => {
    recorded.writes.push(Buffer.from(bytes));
    return write(bytes);
  }) as Socket["write"];
  return recorded;
}

describe("ordinary traffic passes through", () => {
  it("as one write per received chunk in each direction, though the proxy looks at Parse, Sync and ReadyForQuery", async () => {
    let toUpstream: { readonly writes: Buffer[] } | undefined;
    let toClient: { readonly writes: Buffer[] } | undefined;
    let upstreamChunks = 0;
    const server = createServer((socket) => {
      toClient = countWrites(socket);
      new ProxyConnection({
        client: socket,
        connectUpstream: () => {
          const upstream = connect({ host: upstreamHost, port: upstreamPort });
          toUpstream = countWrites(upstream);
          upstream.on("data", () => upstreamChunks++);
          return upstream;
        },
        cancelUpstream: () => {},
        marker: "nl:",
        answerQuestion: (options) => answerWith(options, "select 0 as n"),
        settings: {} as ProxySettings,
        logger: silentLogger,
        hooks: { onCancelRequest: () => {}, onBackendKey: () => {}, onClose: () => {} },
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    const client = new RawClient((server.address() as AddressInfo).port);
    await client.startup(uniqueName("nlq-one-write"));
    const writesBefore = toUpstream!.writes.length;
    const clientWritesBefore = toClient!.writes.length;
    const chunksBefore = upstreamChunks;
    const pipeline = Buffer.concat([
      serialize.parse({ text: "select $1::int + 1 as n" }),
      serialize.bind({ values: ["41"] }),
      serialize.describe({ type: "P" }),
      serialize.execute({}),
      serialize.sync(),
    ]);
    client.socket.write(pipeline);
    await client.waitFor((messages) => messages.filter((m) => m.name === "readyForQuery").length === 2, "the reply");
    expect(toUpstream!.writes.slice(writesBefore)).toEqual([pipeline]);
    // The upstream's reply (ParseComplete … ReadyForQuery) leaves in as many writes as it arrived in chunks.
    expect(toClient!.writes.length - clientWritesBefore).toBe(upstreamChunks - chunksBefore);
    expect(client.messages.find((message) => message.name === "dataRow")).toMatchObject({ fields: ["42"] });
    client.socket.destroy();
  });
});
