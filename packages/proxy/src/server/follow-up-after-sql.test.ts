import type { AnswerQuestionOptions } from "@nlq/engine";
import { serialize } from "pg-protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LARGE_CLIENT_MESSAGE_BYTES } from "../session/question-errors";
import { answerWith, type Message, RawClient, startTestProxy, uniqueName } from "./proxy.test-helpers";
import type { ProxyServer } from "./proxy-server";

const readyCount = (messages: readonly Message[]) => messages.filter((m) => m.name === "readyForQuery").length;

const bindExecuteSync = (statement = "") =>
  Buffer.concat([serialize.bind({ statement }), serialize.execute({}), serialize.sync()]);

/**
 * Ordinary SQL a client runs between a question and its follow-up, in the extended protocol. Each must start the
 * connection's conversation afresh (the follow-up is asked without earlier turns), as a simple Query does.
 */
const ordinarySql: ReadonlyArray<{ readonly name: string; readonly bytes: Buffer }> = [
  {
    name: "a Parse over 1 MiB (judged on its head, streamed), bound and executed",
    bytes: Buffer.concat([
      serialize.parse({ text: `select '${"x".repeat(LARGE_CLIENT_MESSAGE_BYTES)}' as long` }),
      bindExecuteSync(),
    ]),
  },
  {
    name: "a Parse whose text looks like it holds the marker but is SQL, bound and executed",
    bytes: Buffer.concat([serialize.parse({ text: "select 1 -- nl: a comment beside SQL" }), bindExecuteSync()]),
  },
  {
    name: "a Bind and Execute of an ordinary statement prepared before the question",
    bytes: bindExecuteSync("prepared_before"),
  },
];

describe.each([false, true])("a follow-up after ordinary SQL in the extended protocol (native relay %s)", (relayOn) => {
  let proxy: ProxyServer;
  const asked: AnswerQuestionOptions[] = [];

  beforeAll(async () => {
    proxy = await startTestProxy(
      (options) => {
        asked.push(options);
        return answerWith(options, "select 1 as n");
      },
      { nativeRelay: relayOn },
    );
  });
  afterAll(async () => {
    await proxy?.close();
  });

  /** Asks a question, sends `between`, asks a follow-up: the earlier questions the follow-up is asked with. */
  async function followUpAfter(between: Buffer): Promise<string[]> {
    const client = new RawClient(proxy.address.port);
    try {
      await client.startup(uniqueName("nlq-follow-up"));
      client.socket.write(
        Buffer.concat([serialize.parse({ name: "prepared_before", text: "select 2 as two" }), serialize.sync()]),
      );
      await client.waitFor((messages) => readyCount(messages) === 2, "the earlier Parse");
      client.socket.write(serialize.query("/* nl: how many orders? */"));
      await client.waitFor((messages) => readyCount(messages) === 3, "the question's answer");
      client.socket.write(between);
      await client.waitFor((messages) => readyCount(messages) === 4, "the ordinary SQL's ReadyForQuery");
      expect(client.messages.filter((m) => m.name === "error")).toEqual([]);
      const first = asked.length;
      client.socket.write(serialize.query("/* nl: and by month? */"));
      await client.waitFor((messages) => readyCount(messages) === 5, "the follow-up's answer");
      const followUp = asked.slice(first).find((options) => options.question === "and by month?");
      expect(followUp, "the follow-up was asked").toBeDefined();
      return followUp?.previousTurns?.map((turn) => turn.question) ?? [];
    } finally {
      client.socket.destroy();
    }
  }

  it.each(ordinarySql)("is asked afresh after $name", async ({ bytes }) => {
    expect(await followUpAfter(bytes)).toEqual([]);
  });

  it("still follows the question after a Parse, Describe and Sync alone (nothing ran)", async () => {
    const prepareOnly = Buffer.concat([
      serialize.parse({ name: "prepared_after", text: "select 3" }),
      serialize.describe({ type: "S", name: "prepared_after" }),
      serialize.sync(),
    ]);
    expect(await followUpAfter(prepareOnly)).toEqual(["how many orders?"]);
  });
});
