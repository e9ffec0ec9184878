import { serialize } from "pg-protocol";
import { afterAll, describe, expect, it } from "vitest";
import { encodeCommandComplete } from "../protocol/backend-messages";
import { answerWith, RawClient } from "./proxy.test-helpers";
import { startStubUpstream, startTestProxyBefore } from "./stub-upstream.test-helpers";

/**
 * A stub PostgreSQL server: logs anyone in, then answers every Query with CommandComplete and a ReadyForQuery that has
 * no status byte (length 4), which libpq takes as a protocol violation.
 */
function startReadyWithoutStatusUpstream() {
  return startStubUpstream({
    onChunk: (chunk, socket) => {
      if (chunk[0] === 0x51)
        socket.write(Buffer.concat([encodeCommandComplete("SELECT 0"), Buffer.from([0x5a, 0, 0, 0, 4])]));
    },
  });
}

const closers: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const close of closers) await close();
});

describe("an upstream ReadyForQuery without its status byte (relay-rules.vectors.json)", () => {
  it.each([false, true])(
    "ends the connection with FATAL 08P01 instead of passing it on (native relay %s)",
    async (relayOn) => {
      const stub = await startReadyWithoutStatusUpstream();
      const proxy = await startTestProxyBefore(stub, (options) => answerWith(options, "select 1"), {
        nativeRelay: relayOn,
      });
      closers.push(() => proxy.close(), stub.close);
      const client = new RawClient(proxy.address.port);
      await client.startup("ready-without-status");
      client.socket.write(serialize.query("select 1"));
      await client.closed;
      const error = client.messages.find((message) => message.name === "error");
      expect(error?.code).toBe("08P01");
      expect(error?.severity).toBe("FATAL");
      // Only the ReadyForQuery of the login reached the client.
      expect(client.count("readyForQuery")).toBe(1);
    },
    30_000,
  );
});
