import { testServerUrl } from "@nlq/adapters/testing";
import pg from "pg";
import { serialize } from "pg-protocol";
import { describe, expect, it } from "vitest";
import { answerWith, RawClient, startTestProxy, uniqueName } from "../server/proxy.test-helpers";

const VALUE_LENGTH = 32 * 1024 * 1024;

/** Waits until the backend named `name` is blocked writing its result (the proxy stopped reading it mid-row). */
async function untilBlockedInClientWrite(name: string): Promise<void> {
  const client = new pg.Client({ connectionString: testServerUrl });
  await client.connect();
  try {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const result = await client.query(
        "select 1 from pg_stat_activity where application_name = $1 and wait_event = 'ClientWrite'",
        [name],
      );
      if (result.rowCount! > 0) return;
      if (Date.now() > deadline) throw new Error("the backend never blocked writing its result");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await client.end();
  }
}

describe("shutting the proxy down while a large result is on its way", () => {
  it.each([true, false])(
    "lets the result finish whole, then says FATAL 57P01 (native relay %s)",
    async (relayOn) => {
      const proxy = await startTestProxy((options) => answerWith(options, "select 1"), {
        nativeRelay: relayOn,
        closeGraceMilliseconds: 30_000,
      });
      const name = uniqueName("nlq-shutdown-mid-row");
      const client = new RawClient(proxy.address.port);
      await client.startup(name);
      client.socket.pause();
      client.socket.write(serialize.query(`select repeat('x', ${VALUE_LENGTH}) as big`));
      await untilBlockedInClientWrite(name);
      const closed = proxy.close();
      await new Promise((resolve) => setTimeout(resolve, 100));
      client.socket.resume();
      await Promise.race([client.closed, new Promise((resolve) => setTimeout(resolve, 30_000))]);
      await closed;
      const names = client.messages.map((message) => message.name);
      expect(names.slice(-5)).toEqual(["rowDescription", "dataRow", "commandComplete", "readyForQuery", "error"]);
      const row = client.messages.find((message) => message.name === "dataRow") as { fields: string[] } | undefined;
      expect(row?.fields[0]?.length).toBe(VALUE_LENGTH);
      expect(client.messages.at(-1)).toMatchObject({ severity: "FATAL", code: "57P01" });
    },
    60_000,
  );
});
