import { once } from "node:events";
import { connect, createServer, type Socket } from "node:net";
import { serialize } from "pg-protocol";
import { afterEach, describe, expect, it } from "vitest";
import { QuestionMarker } from "../question/question-marker";
import {
  type NativeRelay,
  nativeRelay,
  nativeRelayUnavailable,
  type RelayHandBack,
  type RelayStartState,
} from "./native-relay";
import { resumeReading } from "./socket-reading";

/** The relay must be built wherever the tests run (`npm ci` builds it): no silent skip. */
function relay(): NativeRelay {
  const loaded = nativeRelay();
  if (loaded === undefined) throw new Error(`the native relay is unavailable: ${nativeRelayUnavailable()}`);
  return loaded;
}

const marker = new QuestionMarker("nl:");
const tokens = marker.encodedTokens();
const opened: Socket[] = [];

afterEach(() => {
  for (const socket of opened.splice(0)) socket.destroy();
});

/** Two connected TCP sockets on loopback: the outer one (a test peer) and the accepted one (what the proxy holds). */
async function socketPair(): Promise<{ peer: Socket; held: Socket }> {
  const server = createServer({ pauseOnConnect: true });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address() as { port: number };
  const peer = connect({ host: "127.0.0.1", port: address.port });
  const [held] = (await once(server, "connection")) as [Socket];
  await once(peer, "connect");
  server.close();
  opened.push(peer, held);
  return { peer, held };
}

/** A client peer and an upstream peer, with the proxy's two sockets adopted by the relay. */
async function relayedPair(start: Partial<RelayStartState> = {}) {
  const state = {
    pendingReady: 0,
    forwardedSinceSync: false,
    readyStatus: "I",
    copyIn: false,
    syncsAfterCommand: 0,
    ...start,
  };
  const client = await socketPair();
  const upstream = await socketPair();
  const handBacks: RelayHandBack[] = [];
  let notify: (() => void) | undefined;
  const relayed = relay().adopt(client.held, upstream.held, tokens, state, (handBack) => {
    handBacks.push(handBack);
    notify?.();
  });
  if (relayed === undefined) throw new Error("the relay did not adopt the sockets");
  const nextHandBack = async (): Promise<RelayHandBack> => {
    while (handBacks.length === 0) await new Promise<void>((resolve) => (notify = resolve));
    return handBacks.shift()!;
  };
  return { client: client.peer, upstream: upstream.peer, held: [client.held, upstream.held], relayed, nextHandBack };
}

/** Collects what a peer socket receives. */
function collect(socket: Socket): { bytes: () => Buffer; until: (length: number) => Promise<Buffer> } {
  const chunks: Buffer[] = [];
  let waiter: (() => void) | undefined;
  socket.on("data", (chunk: Buffer) => {
    chunks.push(chunk);
    waiter?.();
  });
  const bytes = () => Buffer.concat(chunks);
  return {
    bytes,
    until: async (length) => {
      while (bytes().length < length) await new Promise<void>((resolve) => (waiter = resolve));
      return bytes();
    },
  };
}

const readyForQuery = (status: string) => Buffer.from([0x5a, 0, 0, 0, 5, status.charCodeAt(0)]);
const commandComplete = (tag: string) => {
  const body = Buffer.from(`${tag}\0`);
  const header = Buffer.alloc(5);
  header[0] = 0x43;
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
};

/** A minimal ErrorResponse with `code`. */
const encodeError = (code: string) => {
  const body = Buffer.from(`SERROR\0C${code}\0Mx\0\0`);
  const header = Buffer.alloc(5);
  header[0] = 0x45;
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
};

describe("the native relay's marker test", () => {
  it.each([
    ["nl:", "select 1"],
    ["nl:", "select 'nl: in a string'"],
    ["nl:", "/* NL : x */"],
    ["nl:", "-- nL:x"],
    ["nl:", "select 1 --- nl: x"],
    ["nl:", "/*note: x*/ select 1"],
    ["nl:", "/* nl how many */"],
    ["nl:", "/*\t\n nl\t:\nx*/"],
    ["nl:", "/* nl"],
    ["nl:", "--"],
    ["nl:", "/*"],
    ["ask me:", "/* ASK   ME : x */"],
    ["ask me:", "/* askme: x */"],
    ["frage:ü", "-- FRAGE : ü wie viele?"],
    ["frage:ü", "-- frage: u wie viele?"],
  ])("agrees with QuestionMarker (%j in %j)", (markerText, text) => {
    const questionMarker = new QuestionMarker(markerText);
    const bytes = Buffer.from(text, "utf8");
    expect(relay().markerMayOccur(questionMarker.encodedTokens(), bytes)).toBe(
      questionMarker.mayOccurInBytes(bytes, 0),
    );
  });

  it("agrees with QuestionMarker on 5,000 random texts built from the marker's pieces", () => {
    const pieces = ["/*", "*/", "--", "nl", "NL", "n", "l", ":", " ", "\t", "\n", "x", "select", "'", "ü"];
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    for (let index = 0; index < 5_000; index++) {
      const length = 1 + Math.floor(random() * 8);
      const text = Array.from({ length }, () => pieces[Math.floor(random() * pieces.length)]).join("");
      const bytes = Buffer.from(text, "utf8");
      expect(relay().markerMayOccur(tokens, bytes), text).toBe(marker.mayOccurInBytes(bytes, 0));
    }
  });
});

describe("the native relay", () => {
  it("passes ordinary messages through both ways, byte for byte, and counts the ReadyForQuery owed", async () => {
    const { client, upstream, relayed } = await relayedPair();
    const atUpstream = collect(upstream);
    const atClient = collect(client);
    const sent = Buffer.concat([
      serialize.query("select 1 /* not a question */"),
      serialize.parse({ text: "select $1::int" }),
      serialize.bind({ values: ["1"] }),
      serialize.execute(),
      serialize.sync(),
    ]);
    client.write(sent);
    expect((await atUpstream.until(sent.length)).equals(sent)).toBe(true);
    const reply = Buffer.concat([commandComplete("SELECT 1"), readyForQuery("I")]);
    upstream.write(reply);
    expect((await atClient.until(reply.length)).equals(reply)).toBe(true);
    const handBack = relayed.release();
    expect(handBack).toMatchObject({ reason: "release", pendingReady: 1, forwardedSinceSync: false, readyStatus: "I" });
  });

  it("frames a stream split at every offset", async () => {
    const { client, upstream, relayed } = await relayedPair();
    const atUpstream = collect(upstream);
    const message = Buffer.concat([serialize.query("select 'a long enough statement'"), serialize.sync()]);
    let expected = Buffer.alloc(0);
    for (let split = 1; split < message.length; split++) {
      client.write(message.subarray(0, split));
      await new Promise((resolve) => setTimeout(resolve, 1));
      client.write(message.subarray(split));
      expected = Buffer.concat([expected, message]);
    }
    expect((await atUpstream.until(expected.length)).equals(expected)).toBe(true);
    expect(relayed.release()).toMatchObject({ reason: "release", pendingReady: 2 * (message.length - 1) });
  });

  it("hands a question back unforwarded, with everything after it, once the statements before it went upstream", async () => {
    const { client, upstream, nextHandBack } = await relayedPair();
    const atUpstream = collect(upstream);
    const before = serialize.query("select 1");
    const question = serialize.query("/* NL: how many orders? */");
    const after = serialize.query("select 2");
    client.write(Buffer.concat([before, question, after]));
    const handBack = await nextHandBack();
    expect(handBack.reason).toBe("question");
    expect(handBack.clientInput?.equals(Buffer.concat([question, after]))).toBe(true);
    expect(handBack.pendingReady).toBe(1);
    expect((await atUpstream.until(before.length)).equals(before)).toBe(true);
  });

  it("hands back a Parse that holds a question", async () => {
    const { client, nextHandBack } = await relayedPair();
    const parse = serialize.parse({ name: "q", text: "-- nl: top customers" });
    client.write(parse);
    const handBack = await nextHandBack();
    expect(handBack).toMatchObject({ reason: "question", pendingReady: 0 });
    expect(handBack.clientInput?.equals(parse)).toBe(true);
  });

  it("is released only at a message boundary: mid-message it finishes the message first", async () => {
    const { client, upstream, relayed, nextHandBack } = await relayedPair({
      pendingReady: 1,
      forwardedSinceSync: false,
      readyStatus: "T",
    });
    const atClient = collect(client);
    const row = Buffer.concat([Buffer.from([0x44, 0, 0, 0, 104]), Buffer.alloc(100, 0x61)]);
    upstream.write(row.subarray(0, 40));
    await atClient.until(40);
    expect(relayed.release()).toBeUndefined();
    upstream.write(Buffer.concat([row.subarray(40), readyForQuery("T")]));
    const handBack = await nextHandBack();
    expect(handBack.reason).toBe("release");
    // The relay stops at the boundary: the rest of the row went through, the ReadyForQuery after it is handed back.
    expect((await atClient.until(row.length)).equals(row)).toBe(true);
    expect(handBack.upstreamInput?.equals(readyForQuery("T"))).toBe(true);
    expect(handBack).toMatchObject({ pendingReady: 1, readyStatus: "T" });
  });

  it("tracks the transaction status and the ReadyForQuery owed across Query, Sync and FunctionCall", async () => {
    const { client, upstream, relayed } = await relayedPair();
    const atUpstream = collect(upstream);
    const atClient = collect(client);
    const functionCall = Buffer.from([0x46, 0, 0, 0, 14, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0]);
    const sent = Buffer.concat([serialize.query("begin"), serialize.sync(), functionCall]);
    client.write(sent);
    await atUpstream.until(sent.length);
    upstream.write(readyForQuery("T"));
    await atClient.until(6);
    expect(relayed.release()).toMatchObject({ pendingReady: 2, readyStatus: "T", forwardedSinceSync: false });
  });

  it("hands back a message with an impossible length without forwarding it", async () => {
    const { client, upstream, nextHandBack } = await relayedPair();
    const atUpstream = collect(upstream);
    const bad = Buffer.from([0x51, 0, 0, 0, 2, 0x41]);
    client.write(Buffer.concat([serialize.sync(), bad]));
    const handBack = await nextHandBack();
    expect(handBack.reason).toBe("protocol");
    expect(handBack.clientInput?.equals(bad)).toBe(true);
    expect((await atUpstream.until(5)).equals(serialize.sync())).toBe(true);
  });

  it("hands the connection back when the client fails, and when the upstream closes", async () => {
    const first = await relayedPair({ pendingReady: 1, forwardedSinceSync: false, readyStatus: "I" });
    first.client.resetAndDestroy();
    expect(await first.nextHandBack()).toMatchObject({ reason: "client-closed", pendingReady: 1 });
    const second = await relayedPair();
    second.upstream.destroy();
    expect((await second.nextHandBack()).reason).toBe("upstream-closed");
  });

  it("hands a client that ended its input back at the end of the result it still reads (client-ended)", async () => {
    const { client, upstream, nextHandBack } = await relayedPair({ pendingReady: 1 });
    const atClient = collect(client);
    const row = Buffer.concat([Buffer.from([0x44, 0, 0, 0, 104]), Buffer.alloc(100, 0x61)]);
    upstream.write(row.subarray(0, 40));
    await atClient.until(40);
    client.end();
    // Until the row is whole, the relay keeps moving it; the connection then goes back with what follows it.
    await new Promise((resolve) => setTimeout(resolve, 50));
    upstream.write(Buffer.concat([row.subarray(40), readyForQuery("I")]));
    const handBack = await nextHandBack();
    expect(handBack).toMatchObject({ reason: "client-ended", pendingReady: 1 });
    expect((await atClient.until(row.length)).equals(row)).toBe(true);
    expect(handBack.upstreamInput?.equals(readyForQuery("I"))).toBe(true);
  });

  it("passes a question sent during COPY FROM STDIN on to the upstream, owing no ReadyForQuery for it or a Sync", async () => {
    const { client, upstream, relayed } = await relayedPair({ pendingReady: 1 });
    const atUpstream = collect(upstream);
    const atClient = collect(client);
    const copyInResponse = Buffer.from([0x47, 0, 0, 0, 7, 0, 0, 0]);
    upstream.write(copyInResponse);
    await atClient.until(copyInResponse.length);
    const sent = Buffer.concat([
      serialize.copyData(Buffer.from("1\n")),
      serialize.query("-- nl: rows?"),
      serialize.sync(),
    ]);
    client.write(sent);
    expect((await atUpstream.until(sent.length)).equals(sent)).toBe(true);
    expect(relayed.release()).toMatchObject({ reason: "release", pendingReady: 1, copyIn: true });
  });

  it("takes the Syncs sent after a command and hands them back; a COPY that command starts owes none for them", async () => {
    const { client, upstream, relayed } = await relayedPair({ pendingReady: 1, syncsAfterCommand: 1 });
    const atUpstream = collect(upstream);
    const atClient = collect(client);
    const copyInResponse = Buffer.from([0x47, 0, 0, 0, 7, 0, 0, 0]);
    upstream.write(copyInResponse);
    await atClient.until(copyInResponse.length);
    const sent = Buffer.concat([serialize.copyData(Buffer.from("1\n")), serialize.copyDone(), serialize.sync()]);
    client.write(sent);
    await atUpstream.until(sent.length);
    // The Sync after Execute was part of the COPY; the one after CopyDone owes the ReadyForQuery, and is counted.
    expect(relayed.release()).toMatchObject({
      reason: "release",
      pendingReady: 1,
      forwardedSinceSync: false,
      copyIn: false,
      syncsAfterCommand: 1,
    });
  });

  it("takes the COPY state it is given and ends it at the upstream's ErrorResponse", async () => {
    const { client, upstream, nextHandBack } = await relayedPair({ pendingReady: 1, copyIn: true });
    const atUpstream = collect(upstream);
    const atClient = collect(client);
    const question = serialize.query("/* nl: rows? */");
    client.write(question);
    expect((await atUpstream.until(question.length)).equals(question)).toBe(true);
    const error = encodeError("08P01");
    upstream.write(Buffer.concat([error, readyForQuery("I")]));
    await atClient.until(error.length + 6);
    client.write(question);
    expect(await nextHandBack()).toMatchObject({ reason: "question", pendingReady: 0, copyIn: false });
  });

  it("stops reading one side while the other does not take its bytes, and loses or reorders none of them", async () => {
    const { client, upstream, relayed, held, nextHandBack } = await relayedPair();
    client.pause();
    const row = Buffer.concat([Buffer.from([0x44, 0, 0, 0x03, 0xff]), Buffer.alloc(1024 - 5, 0x62)]);
    const rows = Buffer.concat(
      Array.from({ length: 16 * 1024 }, (_, index) => {
        const numbered = Buffer.from(row);
        numbered.writeUInt32BE(index, 5);
        return numbered;
      }),
    );
    // Write until every socket buffer on the way is full: the relay has stopped reading the upstream.
    let written = 0;
    let accepted = true;
    while (accepted && written < rows.length) {
      accepted = upstream.write(rows.subarray(written, written + 65_536));
      written += 65_536;
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Mid-row the relay finishes the row first, which needs the client to read: it is handed back then.
    const immediate = relayed.release();
    const atClient = collect(client);
    client.resume();
    const handBack = immediate ?? (await nextHandBack());
    expect(handBack.reason).toBe("release");
    // What the relay holds for the client is at most one read, not the stream it was sent.
    expect(handBack.toClient?.length ?? 0).toBeLessThanOrEqual(65_536);
    // The rest is still in the upstream socket: read it as the JavaScript connection would, after the hand-back.
    const rest = collect(held[1]!);
    held[1]!.resume();
    resumeReading(held[1]!);
    const handedBack = Buffer.concat([handBack.toClient ?? Buffer.alloc(0), handBack.upstreamInput ?? Buffer.alloc(0)]);
    const deadline = Date.now() + 10_000;
    while (atClient.bytes().length + handedBack.length + rest.bytes().length < written && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const received = Buffer.concat([atClient.bytes(), handedBack, rest.bytes()]);
    expect(received.length).toBe(written);
    expect(received.equals(rows.subarray(0, written))).toBe(true);
  });

  it("detaches at once, and no hand-back follows", async () => {
    const { client, relayed, nextHandBack } = await relayedPair();
    relayed.detach();
    client.write(serialize.query("/* nl: anything */"));
    const raced = await Promise.race([
      nextHandBack().then(() => "handed back"),
      new Promise((resolve) => setTimeout(() => resolve("nothing"), 200)),
    ]);
    expect(raced).toBe("nothing");
  });
});
