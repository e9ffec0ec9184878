import { serialize } from "pg-protocol";
import { describe, expect, it } from "vitest";
import { ClientMessageRouter } from "./client-message-router";

function message(bytes: Buffer) {
  return { kind: "message", type: bytes[0]!, message: bytes } as const;
}

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
});
