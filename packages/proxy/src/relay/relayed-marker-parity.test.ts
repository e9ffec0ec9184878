import type pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { detectQuestion } from "../question/detect-question";
import { QuestionMarker } from "../question/question-marker";
import { answerWith, connectThroughProxy, startTestProxy } from "../server/proxy.test-helpers";
import type { ProxyServer } from "../server/proxy-server";
import { LARGE_CLIENT_MESSAGE_BYTES } from "../session/question-errors";
import { nativeRelay, nativeRelayUnavailable } from "./native-relay";

/**
 * The relay's marker test only says "maybe a question" (it lexes nothing); JavaScript decides with PostgreSQL's
 * lexing rules. These texts are where the two could part: line ends other than `\n`, form feeds, vertical tabs,
 * markers beside SQL.
 */
const texts = [
  "-- nl: a note\rselect 1 as a",
  "select 1 as a; -- nl: x\rselect 2 as b",
  "-- nl: first\r\n-- second\r\n",
  "\f-- nl: fed\f",
  "--\rnl: after a carriage return",
  "/*\vnl: vertical tab */",
  "\v/* nl: x */",
  "/*\fNL\f:\fx*/",
  "create table t(x int); -- NL: Dutch rows follow",
  "select E'a'\n'\\'; /* nl: x */; select '",
];

describe("the native relay's marker test and JavaScript's decision", () => {
  it("hands back every text JavaScript would answer or refuse as a question (conservative), agreeing with mayOccurInBytes", () => {
    const relay = nativeRelay();
    if (relay === undefined) throw new Error(`the native relay is unavailable: ${nativeRelayUnavailable()}`);
    const marker = new QuestionMarker("nl:");
    for (const text of texts) {
      const bytes = Buffer.from(text, "utf8");
      const mayOccur = relay.markerMayOccur(marker.encodedTokens(), bytes);
      expect(mayOccur, JSON.stringify(text)).toBe(marker.mayOccurInBytes(bytes, 0));
      if (detectQuestion(text, { marker }).kind !== "sql") expect(mayOccur, JSON.stringify(text)).toBe(true);
    }
  });
});

const proxies: ProxyServer[] = [];
afterAll(async () => {
  await Promise.all(proxies.map((proxy) => proxy.close()));
});

describe.each([true, false])("through the proxy (native relay %s)", (relayOn) => {
  async function client(questions: string[]): Promise<pg.Client> {
    const proxy = await startTestProxy(
      (options) => {
        questions.push(options.question);
        return answerWith(options, "select 42 as answer");
      },
      { nativeRelay: relayOn },
    );
    proxies.push(proxy);
    return connectThroughProxy(proxy);
  }

  it("runs SQL after a -- comment ended by \\r, as PostgreSQL does", async () => {
    const questions: string[] = [];
    const connection = await client(questions);
    try {
      expect((await connection.query("-- nl: a note\rselect 1 as a")).rows).toEqual([{ a: 1 }]);
      const both = (await connection.query("select 1 as a; -- nl: x\rselect 2 as b")) as unknown as pg.QueryResult[];
      expect(both.map((result) => result.rows)).toEqual([[{ a: 1 }], [{ b: 2 }]]);
      expect((await connection.query("-- nl: the answer?\r\n")).rows).toEqual([{ answer: 42 }]);
      expect(questions).toEqual(["the answer?"]);
    } finally {
      await connection.end();
    }
  });

  it("prepares a statement followed by a -- nl: comment, and refuses two statements, as PostgreSQL does", async () => {
    const questions: string[] = [];
    const connection = await client(questions);
    try {
      const prepared = await connection.query({ text: "select $1::int as a; -- nl: a note", values: [1] });
      expect(prepared.rows).toEqual([{ a: 1 }]);
      await expect(connection.query({ text: "select $1::int as a; -- nl: x\rselect 2", values: [1] })).rejects.toThrow(
        /cannot insert multiple commands into a prepared statement/,
      );
      expect(questions).toEqual([]);
    } finally {
      await connection.end();
    }
  });

  it("runs a script over 1 MiB with a -- NL: comment beside its SQL, as PostgreSQL does", async () => {
    const questions: string[] = [];
    const connection = await client(questions);
    try {
      const script = `create temp table big(x int); -- NL: Dutch rows follow\ninsert into big values (1), (2);${" ".repeat(2 * 1024 * 1024)}`;
      await connection.query(script);
      expect((await connection.query("select count(*)::int as n from big")).rows).toEqual([{ n: 2 }]);
      expect(questions).toEqual([]);
    } finally {
      await connection.end();
    }
  });

  it("refuses a question over 1 MiB wherever its first MiB ends, even right after a / that opens a comment", async () => {
    const questions: string[] = [];
    const connection = await client(questions);
    try {
      const question = "/* nl: how many? */";
      // The first MiB (header included) ends right after the "/" of "/* pad */".
      const gap = LARGE_CLIENT_MESSAGE_BYTES - 5 - question.length - 1;
      const text = `${question}${" ".repeat(gap)}/* pad */${" ".repeat(LARGE_CLIENT_MESSAGE_BYTES)}`;
      await expect(connection.query(text)).rejects.toMatchObject({ code: "54000" });
      expect((await connection.query("select 1 as one")).rows).toEqual([{ one: 1 }]);
      expect(questions).toEqual([]);
    } finally {
      await connection.end();
    }
  });

  it("runs a script ending with a -- NL: comment as one implicit transaction, as PostgreSQL does", async () => {
    const questions: string[] = [];
    const connection = await client(questions);
    try {
      await connection.query(
        "create temp table dutch(x int); insert into dutch values (1), (2); -- NL: Dutch rows follow",
      );
      expect((await connection.query("select count(*)::int as n from dutch")).rows).toEqual([{ n: 2 }]);
      // One implicit transaction: a failing statement later in the script undoes the earlier ones.
      await expect(
        connection.query("insert into dutch values (3); select 1/0; -- NL: more rows follow"),
      ).rejects.toThrow(/division by zero/);
      expect((await connection.query("select count(*)::int as n from dutch")).rows).toEqual([{ n: 2 }]);
      expect(questions).toEqual([]);
    } finally {
      await connection.end();
    }
  });
});
