import { serialize } from "pg-protocol";
import { afterAll, describe, expect, it } from "vitest";
import { LARGE_CLIENT_MESSAGE_BYTES } from "../session/question-errors";
import { answerWith, RawClient, startTestProxy } from "./proxy.test-helpers";
import type { ProxyServer } from "./proxy-server";
import { startStubUpstream, startTestProxyBefore } from "./stub-upstream.test-helpers";

const closers: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const close of closers) await close();
});

/** A stub PostgreSQL server that logs anyone in and counts the bytes it receives after the startup packet. */
async function startCountingUpstream() {
  let received = 0;
  const { port, close } = await startStubUpstream({ onChunk: (chunk) => (received += chunk.length) });
  closers.push(close);
  return { port, received: () => received };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A session the answerer never uses (its answer is canned). */
const noSession = {
  name: "none",
  query: async () => ({ fields: [], rows: [], command: "SELECT 0" }),
} as unknown as Parameters<typeof answerWith>[0]["session"];

/** A simple Query of `size` bytes, whose text starts with `start` and ends with `end`. */
function queryOf(size: number, start: string, end = ""): Buffer {
  return serialize.query(`${start}${" ".repeat(size - 6 - start.length - end.length)}${end}`);
}

async function proxyTo(port: number | undefined, relayOn: boolean): Promise<ProxyServer> {
  const proxy = await startTestProxy((options) => answerWith(options, "select 1 as one"), {
    nativeRelay: relayOn,
    ...(port === undefined ? {} : { upstreamHost: "127.0.0.1", upstreamPort: port }),
  });
  closers.unshift(() => proxy.close());
  return proxy;
}

describe("a Query larger than the proxy holds whole (1 MiB)", () => {
  it.each([false, true])(
    "streams upstream before it has all arrived when it is ordinary SQL (native relay %s)",
    async (relayOn) => {
      const upstream = await startCountingUpstream();
      const proxy = await proxyTo(upstream.port, relayOn);
      const client = new RawClient(proxy.address.port);
      await client.startup("large-ordinary");
      const query = queryOf(8 * LARGE_CLIENT_MESSAGE_BYTES, "select 1", "/* nl: past the head: a comment */");
      const sentFirst = 3 * LARGE_CLIENT_MESSAGE_BYTES;
      client.socket.write(query.subarray(0, sentFirst));
      // More than the head reached the upstream while most of the Query is still unsent: it was not held whole.
      await until(() => upstream.received() > 2 * LARGE_CLIENT_MESSAGE_BYTES, "the head upstream");
      client.socket.write(query.subarray(sentFirst));
      await until(() => upstream.received() === query.length, "the whole Query upstream");
      client.socket.destroy();
    },
  );

  it.each([false, true])(
    "behind a question being answered, is not read further until the answer is sent (native relay %s)",
    async (relayOn) => {
      const upstream = await startCountingUpstream();
      let answer: () => void = () => {};
      const answered = new Promise<void>((resolve) => (answer = resolve));
      const proxy = await startTestProxyBefore(
        upstream,
        async (options) => {
          await answered;
          return { ...(await answerWith({ ...options, session: noSession }, "select 1")), question: options.question };
        },
        { nativeRelay: relayOn },
      );
      closers.unshift(() => proxy.close());
      const client = new RawClient(proxy.address.port);
      await client.startup("large-behind-question");
      const large = queryOf(64 * LARGE_CLIENT_MESSAGE_BYTES, "select 1");
      client.socket.write(Buffer.concat([serialize.query("/* nl: slow */"), large]));
      // The proxy stops reading the client after the large Query's first MiB: most of it stays on the client's side.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(client.socket.writableLength).toBeGreaterThan(32 * LARGE_CLIENT_MESSAGE_BYTES);
      expect(upstream.received()).toBe(0);
      answer();
      // Then the Query streams upstream whole, after the answer.
      await until(() => upstream.received() === large.length, "the large Query upstream");
      client.socket.destroy();
    },
  );

  it.each([false, true])(
    "holding the marker in its head, is refused before it has all arrived (native relay %s)",
    async (relayOn) => {
      const proxy = await proxyTo(undefined, relayOn);
      const client = new RawClient(proxy.address.port);
      await client.startup("large-question");
      const question = queryOf(64 * LARGE_CLIENT_MESSAGE_BYTES, "-- nl: how many? ");
      const sentFirst = 2 * LARGE_CLIENT_MESSAGE_BYTES;
      client.socket.write(question.subarray(0, sentFirst));
      await client.waitFor((messages) => messages.some((message) => message.name === "error"), "the refusal", 10_000);
      expect(client.messages.find((message) => message.name === "error")).toMatchObject({
        code: "54000",
        message: expect.stringContaining(`at most ${LARGE_CLIENT_MESSAGE_BYTES} bytes`),
      });
      // The rest is dropped as it streams; the session goes on after it.
      client.socket.write(question.subarray(sentFirst));
      client.socket.write(serialize.query("select 2 as two"));
      await client.waitFor((messages) => messages.some((message) => message.name === "dataRow"), "select 2");
      expect(client.messages.find((message) => message.name === "dataRow")).toMatchObject({ fields: ["2"] });
      client.socket.destroy();
    },
  );
});
