import type { Answer } from "@nlq/engine";
import { singleCandidateSelection } from "@nlq/engine/testing";
import { serialize } from "pg-protocol";
import { describe, expect, it } from "vitest";
import { MessageType } from "../protocol/frontend-messages";
import { ClientMessageRouter } from "./client-message-router";
import { LARGE_CLIENT_MESSAGE_BYTES } from "./question-errors";

function message(bytes: Buffer) {
  return { kind: "message", type: bytes[0]!, message: bytes } as const;
}

/** A FunctionCall of `oid` without arguments. */
function functionCall(oid: number): Buffer {
  const bytes = Buffer.alloc(15);
  bytes.write("F", 0, "latin1");
  bytes.writeInt32BE(14, 1);
  bytes.writeInt32BE(oid, 5);
  return bytes;
}

/** A router whose connection answered a question: a follow-up would be shown it. */
function followingRouter(): ClientMessageRouter {
  const router = new ClientMessageRouter("nl:");
  router.conversation.answered({
    question: "how many orders?",
    sql: "select count(*) from orders",
    result: { fields: [], rows: [], command: "SELECT" },
    truncated: false,
    selection: singleCandidateSelection,
    model: { id: "test:model", scripted: false },
    candidates: [],
    calls: [],
    elapsedMilliseconds: 1,
  } satisfies Answer);
  expect(router.conversation.following).toBe(true);
  return router;
}

/** Routes `messages` one by one (each must be forwarded); how many of them owe a ReadyForQuery. */
function forwardAll(router: ClientMessageRouter, messages: readonly Buffer[]): number {
  let owed = 0;
  for (const bytes of messages) {
    const route = router.route(message(bytes));
    expect(route, `message ${String.fromCharCode(bytes[0]!)}`).toMatchObject({ kind: "forward", bytes });
    if (route.kind === "forward" && route.awaitsReady) owed++;
  }
  return owed;
}

const bindExecuteSync = (statement = "") => [
  serialize.bind({ statement }),
  serialize.describe({ type: "P" }),
  serialize.execute({}),
  serialize.sync(),
];

describe("ClientMessageRouter", () => {
  it("forwards ordinary SQL untouched and answers a question", () => {
    const router = new ClientMessageRouter("nl:");
    const query = serialize.query("select 1");
    expect(router.route(message(query))).toEqual({ kind: "forward", bytes: query, awaitsReady: true });
    expect(router.route(message(serialize.query("/* nl: how many orders? */;")))).toEqual({
      kind: "answer",
      detection: { kind: "question", question: "how many orders?" },
    });
  });

  it("forwards a pick as the comment it is until the connection has an answer to pick from", () => {
    const fresh = new ClientMessageRouter("nl:");
    const pick = serialize.query("/* nl#1 */;");
    expect(fresh.route(message(pick))).toEqual({ kind: "forward", bytes: pick, awaitsReady: true });
    const parse = serialize.parse({ name: "p", text: "/* nl#2 */", types: [] });
    expect(fresh.route(message(parse))).toMatchObject({ kind: "forward", bytes: parse });
    expect(followingRouter().route(message(pick))).toEqual({
      kind: "answer",
      detection: { kind: "pick", number: 1 },
    });
  });

  it("forwards SQL that holds the marker only in a string", () => {
    const router = new ClientMessageRouter("nl:");
    const query = serialize.query("select 'nl: not a question'");
    expect(router.route(message(query))).toEqual({ kind: "forward", bytes: query, awaitsReady: true });
  });

  it("finds a non-ASCII marker", () => {
    const router = new ClientMessageRouter("frage:ü");
    expect(router.route(message(serialize.query("-- frage:ü wie viele?"))).kind).toBe("answer");
  });

  it.each([
    "/* NL: how many orders? */;",
    "/*nl:how many orders?*/",
    "/*  nl :  how many orders? */",
    "-- NL: how many orders?",
  ])("answers the marker in any case with optional spaces: %j", (text) => {
    const router = new ClientMessageRouter("nl:");
    expect(router.route(message(serialize.query(text)))).toEqual({
      kind: "answer",
      detection: { kind: "question", question: "how many orders?" },
    });
    expect(router.route(message(serialize.parse({ name: "", text }))).kind).toBe("collect");
  });

  it.each(["/* nl how many orders */;", "/* note: not a question */", "select 1 -- NL: beside SQL"])(
    "forwards a comment that is not a marker untouched: %j",
    (text) => {
      const router = new ClientMessageRouter("nl:");
      const query = serialize.query(text);
      expect(router.route(message(query))).toEqual({ kind: "forward", bytes: query, awaitsReady: true });
    },
  );

  it("forgets a question statement when a Parse without the marker reuses its name", () => {
    const router = new ClientMessageRouter("nl:");
    expect(router.route(message(serialize.parse({ name: "s1", text: "/* nl: top products */" }))).kind).toBe("collect");
    expect(router.route(message(serialize.bind({ statement: "s1" }))).kind).toBe("collect");
    const ordinary = serialize.parse({ name: "s1", text: "select 1" });
    expect(router.route(message(ordinary))).toEqual({ kind: "forward", bytes: ordinary, awaitsReady: false });
    const bind = serialize.bind({ statement: "s1" });
    expect(router.route(message(bind))).toEqual({ kind: "forward", bytes: bind, awaitsReady: false });
  });

  it("routes Bind and Describe of a question statement to be answered, and forgets it at Close", () => {
    const router = new ClientMessageRouter("nl:");
    expect(router.route(message(serialize.parse({ name: "s1", text: "/* nl: top products */" })))).toMatchObject({
      kind: "collect",
      statement: "s1",
    });
    expect(router.route(message(serialize.bind({ statement: "s1" })))).toMatchObject({
      kind: "collect",
      statement: "s1",
      detection: { kind: "question", question: "top products" },
    });
    expect(router.route(message(serialize.describe({ type: "S", name: "s1" })))).toMatchObject({ kind: "collect" });
    const describePortal = serialize.describe({ type: "P", name: "s1" });
    expect(router.route(message(describePortal))).toEqual({
      kind: "forward",
      bytes: describePortal,
      awaitsReady: false,
    });
    const close = serialize.close({ type: "S", name: "s1" });
    expect(router.route(message(close))).toEqual({ kind: "forward", bytes: close, awaitsReady: false });
    const bind = serialize.bind({ statement: "s1" });
    expect(router.route(message(bind))).toEqual({ kind: "forward", bytes: bind, awaitsReady: false });
  });

  it("forgets the unnamed question statement at a simple Query, as PostgreSQL does", () => {
    const router = new ClientMessageRouter("nl:");
    expect(router.route(message(serialize.parse({ text: "/* nl: top products */" }))).kind).toBe("collect");
    expect(router.route(message(serialize.bind({}))).kind).toBe("collect");
    router.route(message(serialize.query("select 1")));
    expect(router.route(message(serialize.bind({}))).kind).toBe("forward");
  });

  it("forgets a Parse without the marker that is large, as it streams", () => {
    const router = new ClientMessageRouter("nl:");
    const parse = serialize.parse({ name: "s1", text: `select '${"x".repeat(LARGE_CLIENT_MESSAGE_BYTES)}'` });
    expect(router.route(message(serialize.parse({ name: "s1", text: "/* nl: top products */" }))).kind).toBe("collect");
    expect(router.routeLarge(MessageType.parse, parse.length, parse.subarray(0, LARGE_CLIENT_MESSAGE_BYTES))).toEqual({
      fate: "pass",
    });
    expect(router.route({ kind: "bytes", bytes: parse.subarray(LARGE_CLIENT_MESSAGE_BYTES), large: true }).kind).toBe(
      "forward",
    );
    expect(router.route(message(serialize.bind({ statement: "s1" }))).kind).toBe("forward");
  });
});

describe("ClientMessageRouter: ordinary SQL run upstream starts the conversation afresh", () => {
  it("at a simple Query", () => {
    const router = followingRouter();
    forwardAll(router, [serialize.query("select 1")]);
    expect(router.conversation.following).toBe(false);
  });

  it("at a large simple Query, streamed", () => {
    const router = followingRouter();
    const query = serialize.query(`select 1 ${" ".repeat(LARGE_CLIENT_MESSAGE_BYTES)}`);
    const head = query.subarray(0, LARGE_CLIENT_MESSAGE_BYTES);
    expect(router.routeLarge(MessageType.query, query.length, head)).toEqual({ fate: "pass", awaitsReady: true });
    expect(router.conversation.following).toBe(false);
  });

  it("at the Execute of a Parse over 1 MiB, judged on its head and streamed", () => {
    const router = followingRouter();
    const parse = serialize.parse({ text: `select '${"x".repeat(LARGE_CLIENT_MESSAGE_BYTES)}'` });
    const head = parse.subarray(0, LARGE_CLIENT_MESSAGE_BYTES);
    expect(router.routeLarge(MessageType.parse, parse.length, head)).toEqual({ fate: "pass" });
    router.route({ kind: "bytes", bytes: parse.subarray(LARGE_CLIENT_MESSAGE_BYTES), large: true });
    forwardAll(router, bindExecuteSync());
    expect(router.conversation.following).toBe(false);
  });

  it("at the Execute of a Parse whose text looks like it holds the marker but is SQL", () => {
    const router = followingRouter();
    forwardAll(router, [serialize.parse({ text: "select 1 -- nl: a comment beside SQL" }), ...bindExecuteSync()]);
    expect(router.conversation.following).toBe(false);
  });

  it("at a Bind and Execute of an ordinary statement prepared before the question", () => {
    const router = followingRouter();
    forwardAll(router, [serialize.bind({ statement: "earlier" }), serialize.execute({}), serialize.sync()]);
    expect(router.conversation.following).toBe(false);
  });

  it("at a FunctionCall", () => {
    const router = followingRouter();
    expect(forwardAll(router, [functionCall(1598)])).toBe(1);
    expect(router.conversation.following).toBe(false);
  });

  it("not at a Parse, Bind, Describe or Sync alone (nothing runs), nor at a question statement's Bind", () => {
    const router = followingRouter();
    forwardAll(router, [
      serialize.parse({ name: "s1", text: "select 1" }),
      serialize.describe({ type: "S", name: "s1" }),
      serialize.bind({ statement: "s1" }),
      serialize.sync(),
    ]);
    expect(router.route(message(serialize.parse({ name: "q", text: "/* nl: and by month? */" }))).kind).toBe("collect");
    expect(router.route(message(serialize.bind({ statement: "q" }))).kind).toBe("collect");
    expect(router.conversation.following).toBe(true);
  });
});

describe("ClientMessageRouter: COPY FROM STDIN and the ReadyForQuery owed", () => {
  const extendedCopy = [serialize.parse({ text: "copy t from stdin" }), ...bindExecuteSync()];

  it("takes back the Sync sent after an Execute that starts a COPY (PostgreSQL reads it as part of the COPY)", () => {
    const router = new ClientMessageRouter("nl:");
    expect(forwardAll(router, extendedCopy)).toBe(1);
    expect(router.noteUpstream(MessageType.copyInResponse)).toBe(1);
    expect(router.copyIn.active).toBe(true);
    // The Execute's batch is open again until the Sync after the COPY.
    expect(router.forwardedSinceSync).toBe(true);
    // CopyData, and a Sync during the COPY, owe nothing; CopyDone ends it; the Sync after it is answered.
    expect(forwardAll(router, [serialize.copyData(Buffer.from("1\n")), serialize.sync()])).toBe(0);
    expect(forwardAll(router, [serialize.copyDone()])).toBe(0);
    expect(router.copyIn.active).toBe(false);
    expect(forwardAll(router, [serialize.sync()])).toBe(1);
    expect(router.forwardedSinceSync).toBe(false);
  });

  it("takes back every Sync after the COPY's Execute, and none before it", () => {
    const router = new ClientMessageRouter("nl:");
    forwardAll(router, [serialize.parse({ text: "select 1" }), ...bindExecuteSync(), ...extendedCopy]);
    forwardAll(router, [serialize.flush(), serialize.sync()]);
    expect(router.noteUpstream(MessageType.copyInResponse)).toBe(2);
    expect(router.noteUpstream(MessageType.copyInResponse)).toBe(0);
  });

  it("takes back nothing for a COPY started by a simple Query, whose ReadyForQuery ends it", () => {
    const router = new ClientMessageRouter("nl:");
    forwardAll(router, [serialize.parse({ text: "select 1" }), ...bindExecuteSync()]);
    expect(forwardAll(router, [serialize.query("copy t from stdin")])).toBe(1);
    expect(router.noteUpstream(MessageType.copyInResponse)).toBe(0);
    expect(router.forwardedSinceSync).toBe(false);
  });

  it("ends the COPY at the client's CopyFail: a question after it is looked for again", () => {
    const router = new ClientMessageRouter("nl:");
    forwardAll(router, [serialize.query("copy t from stdin")]);
    router.noteUpstream(MessageType.copyInResponse);
    expect(router.inspects(0x66)).toBe(true);
    forwardAll(router, [serialize.copyFail("changed my mind")]);
    expect(router.inspects(0x66)).toBe(false);
    expect(router.route(message(serialize.query("/* nl: how many? */"))).kind).toBe("answer");
  });
});
