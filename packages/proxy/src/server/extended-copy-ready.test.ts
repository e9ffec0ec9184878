import { serialize } from "pg-protocol";
import { afterAll, describe, expect, it } from "vitest";
import { answerWith, type Message, RawClient, startTestProxy, uniqueName, upstreamPort } from "./proxy.test-helpers";
import type { ProxyServer } from "./proxy-server";

const proxies: ProxyServer[] = [];
afterAll(async () => {
  await Promise.all(proxies.map((proxy) => proxy.close()));
});

const readyCount = (messages: readonly Message[]) => messages.filter((m) => m.name === "readyForQuery").length;

/** What libpq's PQexecParams("COPY … FROM STDIN") sends: Parse, Bind, Describe (portal), Execute, Sync. */
const extendedCopy = (extraSyncs = 0) =>
  Buffer.concat([
    serialize.parse({ text: "copy copied from stdin" }),
    serialize.bind({}),
    serialize.describe({ type: "P" }),
    serialize.execute({}),
    serialize.sync(),
    ...Array.from({ length: extraSyncs }, () => serialize.sync()),
  ]);
const copyData = (text: string) => serialize.copyData(Buffer.from(text));

/**
 * The ways an extended-protocol COPY FROM STDIN ends, as libpq drives them: after CopyDone or CopyFail it sends a Sync
 * of its own (PQputCopyEnd), since PostgreSQL ignores a Sync during COPY (the one after Execute) and, the COPY over,
 * waits for one before its ReadyForQuery.
 */
const flows: ReadonlyArray<{
  readonly name: string;
  readonly run: (client: RawClient) => Promise<void>;
  /** The message names PostgreSQL sends from the COPY's Parse on. */
  readonly replies: readonly string[];
}> = [
  {
    name: "rows, CopyDone, Sync",
    run: async (client) => {
      client.socket.write(extendedCopy());
      await client.waitFor((messages) => messages.some((m) => m.name === "copyInResponse"), "CopyInResponse");
      client.socket.write(Buffer.concat([copyData("1\n"), copyData("2\n"), serialize.copyDone(), serialize.sync()]));
    },
    replies: ["parseComplete", "bindComplete", "noData", "copyInResponse", "commandComplete", "readyForQuery"],
  },
  {
    name: "a bad row (the server ends the COPY with an error), more rows, CopyDone, Sync",
    run: async (client) => {
      client.socket.write(extendedCopy());
      await client.waitFor((messages) => messages.some((m) => m.name === "copyInResponse"), "CopyInResponse");
      client.socket.write(copyData("not a number\n"));
      await client.waitFor((messages) => messages.some((m) => m.name === "error"), "the COPY's error");
      client.socket.write(Buffer.concat([copyData("2\n"), serialize.copyDone(), serialize.sync()]));
    },
    replies: ["parseComplete", "bindComplete", "noData", "copyInResponse", "error", "readyForQuery"],
  },
  {
    name: "CopyFail, Sync",
    run: async (client) => {
      client.socket.write(extendedCopy());
      await client.waitFor((messages) => messages.some((m) => m.name === "copyInResponse"), "CopyInResponse");
      client.socket.write(Buffer.concat([copyData("1\n"), serialize.copyFail("changed my mind"), serialize.sync()]));
    },
    replies: ["parseComplete", "bindComplete", "noData", "copyInResponse", "error", "readyForQuery"],
  },
  {
    name: "two Syncs after Execute (both ignored during the COPY), rows, CopyDone, Sync",
    run: async (client) => {
      client.socket.write(extendedCopy(1));
      await client.waitFor((messages) => messages.some((m) => m.name === "copyInResponse"), "CopyInResponse");
      client.socket.write(Buffer.concat([copyData("1\n"), serialize.copyDone(), serialize.sync()]));
    },
    replies: ["parseComplete", "bindComplete", "noData", "copyInResponse", "commandComplete", "readyForQuery"],
  },
];

/**
 * Opens a connection to `port` with a temporary table `copied`, runs `flow` on it until its ReadyForQuery; the client
 * and the index of the first message the flow brought.
 */
async function runCopyFlow(port: number, flow: (typeof flows)[number]): Promise<{ client: RawClient; from: number }> {
  const client = new RawClient(port);
  try {
    await client.startup(uniqueName("nlq-extended-copy"));
    client.socket.write(serialize.query("create temp table copied (n int)"));
    await client.waitFor((messages) => readyCount(messages) === 2, "create table");
    const from = client.messages.length;
    await flow.run(client);
    await client.waitFor((messages) => readyCount(messages) === 3, "the COPY's ReadyForQuery");
    return { client, from };
  } catch (error) {
    client.socket.destroy();
    throw error;
  }
}

/** Runs `flow` on a fresh connection to `port`, then asks a question; what arrived from the COPY's Parse on. */
async function copyThenAsk(port: number, flow: (typeof flows)[number]): Promise<Message[]> {
  const { client, from } = await runCopyFlow(port, flow);
  try {
    // A question waits until the upstream owes no ReadyForQuery: one counted too many, it would wait for ever.
    client.socket.write(serialize.query("/* nl: how many rows were copied? */;"));
    await client.waitFor((messages) => readyCount(messages) === 4, "the question's answer", 5_000);
    return client.messages.slice(from);
  } finally {
    client.socket.destroy();
  }
}

describe("an extended-protocol COPY FROM STDIN (libpq's PQexecParams)", () => {
  it.each(flows)("PostgreSQL itself sends one ReadyForQuery for it: $name", async (flow) => {
    const { client, from } = await runCopyFlow(upstreamPort, flow);
    try {
      // Nothing more comes (a second ReadyForQuery would be a Sync answered after all).
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(client.messages.slice(from).map((m) => m.name)).toEqual(flow.replies);
    } finally {
      client.socket.destroy();
    }
  });

  describe.each([false, true])("through the proxy (native relay %s)", (relayOn) => {
    it.each(flows)("owes no ReadyForQuery after it, so a question is answered: $name", async (flow) => {
      const proxy = await startTestProxy((options) => answerWith(options, "select count(*)::int as rows from copied"), {
        nativeRelay: relayOn,
      });
      proxies.push(proxy);
      const messages = await copyThenAsk(proxy.address.port, flow);
      expect(messages.map((m) => m.name)).toEqual([
        ...flow.replies,
        // The answer: its SQL as a NOTICE, then its rows.
        "notice",
        "rowDescription",
        "dataRow",
        "commandComplete",
        "readyForQuery",
      ]);
    });

    it("owes no ReadyForQuery for the Sync ending a question's batch that a COPY it holds reads", async () => {
      const proxy = await startTestProxy((options) => answerWith(options, "select count(*)::int as rows from copied"), {
        nativeRelay: relayOn,
      });
      proxies.push(proxy);
      // The COPY's Execute goes upstream, the question is collected; at its Sync the batch error is scheduled and the
      // Sync sent on, which PostgreSQL reads as part of the COPY: answered only after CopyDone and the next Sync.
      const batch: (typeof flows)[number] = {
        name: "a COPY, then a question in the same batch",
        run: async (client) => {
          client.socket.write(
            Buffer.concat([
              serialize.parse({ text: "copy copied from stdin" }),
              serialize.bind({}),
              serialize.describe({ type: "P" }),
              serialize.execute({}),
              serialize.parse({ text: "/* nl: how many rows? */" }),
              serialize.bind({}),
              serialize.execute({}),
              serialize.sync(),
            ]),
          );
          await client.waitFor((messages) => messages.some((m) => m.name === "copyInResponse"), "CopyInResponse");
          client.socket.write(Buffer.concat([copyData("1\n"), serialize.copyDone(), serialize.sync()]));
        },
        replies: [],
      };
      const messages = await copyThenAsk(proxy.address.port, batch);
      expect(messages.map((m) => m.name)).toEqual([
        "parseComplete",
        "bindComplete",
        "noData",
        "copyInResponse",
        "commandComplete",
        // The question's batch error, just before the upstream's ReadyForQuery.
        "error",
        "readyForQuery",
        "notice",
        "rowDescription",
        "dataRow",
        "commandComplete",
        "readyForQuery",
      ]);
    });
  });
});
