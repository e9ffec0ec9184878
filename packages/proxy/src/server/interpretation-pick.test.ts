import path from "node:path";
import {
  type AuditedOutcome,
  KnowledgeStore,
  type MetadataStore,
  openMetadataStore,
  type QuestionAsker,
  VerifiedExampleStore,
} from "@nlq/adapters";
import { createTestDatabase, type TestDatabase } from "@nlq/adapters/testing";
import { type AnswerQuestionOptions, answerQuestion, loadSettings } from "@nlq/engine";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nativeRelay } from "../relay/native-relay";
import { answerWith, startTestProxy, upstreamHost, upstreamPort, upstreamUser } from "./proxy.test-helpers";
import type { ProxyServer } from "./proxy-server";

// Issue 19 items 2 and 3 in the proxy: a question whose candidates disagree lists its interpretations in NOTICEs,
// `/* nl#2 */;` on the same connection runs #2 of that connection's last answer (audited like an answer, keeping
// nothing), `/* nl#2 remember */;` also keeps it, and a follow-up question is asked with the connection's earlier
// questions. Through a real proxy, relay on and off.
const fixture = path.resolve("apps/cli/src/cli/fixtures/ask-interpretations-model.json");
const question = "How expensive are the products?";
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase(
    "nlq_pick",
    "CREATE TABLE products (id integer PRIMARY KEY, name text NOT NULL, price numeric(6,2)); INSERT INTO products VALUES (1, 'Lamp', 12.50), (2, 'Mug', 4.00), (3, 'Blanket', 30.00);",
  );
});
afterAll(async () => {
  await database?.drop();
});

interface Recorded {
  readonly question: string;
  readonly outcome: AuditedOutcome;
}

function dataSourceOf(): string {
  return `${upstreamHost}:${upstreamPort}/${new URL(database.url).pathname.slice(1)}`;
}

async function connect(proxy: ProxyServer, notices: string[] = []): Promise<pg.Client> {
  const client = new pg.Client({
    host: upstreamHost,
    port: proxy.address.port,
    user: upstreamUser,
    database: new URL(database.url).pathname.slice(1),
  });
  client.on("notice", (notice) => notices.push(`${notice.message}${notice.detail ? ` | ${notice.detail}` : ""}`));
  await client.connect();
  return client;
}

/** Waits until the native relay holds `count` connections: the next pick must come back from it. */
async function untilRelayed(count: number): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (nativeRelay()!.adoptedCount !== count && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(nativeRelay()!.adoptedCount).toBe(count);
}

describe.each([true, false])("interpretations over the proxy (native relay %s)", (relayOn) => {
  let proxy: ProxyServer;
  const audited: Recorded[] = [];
  let store: MetadataStore;

  beforeAll(async () => {
    store = await openMetadataStore({ directory: "memory://" });
    const settings = loadSettings({ NLQ_MODEL: `scripted:${fixture}`, NLQ_PRESET: "balanced" });
    proxy = await startTestProxy(answerQuestion, {
      settings,
      nativeRelay: relayOn,
      readingConfirmations: { database: store.database, administratorRole: "nlq_example_admin" },
      auditTrail: {
        record: (_asker: QuestionAsker, asked: string, outcome: AuditedOutcome) =>
          audited.push({ question: asked, outcome }),
      },
    });
  });
  afterAll(async () => {
    await proxy?.close();
    await store?.close();
  });

  const kept = async () => [
    ...(await new VerifiedExampleStore(store.database).visibleTo(dataSourceOf(), upstreamUser)),
    ...(await new KnowledgeStore(store.database).visibleTo(dataSourceOf(), upstreamUser)),
  ];

  it("lists the readings in NOTICEs and runs #2 on `/* nl#2 */;`, then another after ordinary SQL", async () => {
    const notices: string[] = [];
    const client = await connect(proxy, notices);
    try {
      const answered = await client.query(`/* nl: ${question} */`);
      expect(answered.rows).toEqual([{ price: "15.5000000000000000" }]);
      expect(notices).toContain(
        "nlq: which did you mean? the question has 3 readings whose results differ; these rows are #1's, run /* nl#2 */; to see #2's instead (/* nl#2 remember */; also keeps it from now on) | the chosen reading has 1 of 3 candidates (33%), below NLQ_ASK_WHEN_SUPPORT_BELOW=0.5",
      );
      expect(notices).toContain(
        "nlq: #2, 1 of 3 candidates: returns max(price) instead of avg(price); price is 30.00 instead of 15.5000000000000000 | SELECT max(price) AS price FROM products",
      );
      expect(notices.some((notice) => notice.startsWith("nlq: #1 (shown), 1 of 3 candidates"))).toBe(true);
      expect(notices.some((notice) => notice.startsWith("nlq: #3, 1 of 3 candidates"))).toBe(true);

      notices.length = 0;
      const picked = await client.query("/* nl#2 */;");
      expect(picked.rows).toEqual([{ price: "30.00" }]);
      expect(notices[0]).toMatch(/^nlq: SELECT max\(price\) AS price FROM products \| .*chosen by user$/);
      // The readings stay listed, now measured against the pick.
      expect(notices.some((notice) => notice.startsWith("nlq: #2 (shown)"))).toBe(true);

      // Ordinary SQL (the native relay takes the connection back) and a pick with `--` as the whole query.
      expect((await client.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
      if (relayOn) await untilRelayed(1);
      const third = await client.query("-- nl#3");
      expect(third.rows).toEqual([
        { name: "Blanket", price: "30.00" },
        { name: "Lamp", price: "12.50" },
        { name: "Mug", price: "4.00" },
      ]);
      // Through the extended protocol too (drivers, BI tools): a Parse whose text is the pick.
      const extended = await client.query({ text: "/* nl#2 */", values: [], name: "pick_two" });
      expect(extended.rows).toEqual([{ price: "30.00" }]);
      await expect(client.query("/* nl#7 */;")).rejects.toMatchObject({ code: "22023" });
      // The connection is still usable after the refused pick.
      expect((await client.query("SELECT 2 AS two")).rows).toEqual([{ two: 2 }]);
    } finally {
      await client.end();
    }
    const picks = audited.filter(
      (entry) => "answer" in entry.outcome && entry.outcome.answer.selection.selector === "user",
    );
    expect(picks.map((entry) => [entry.question, "answer" in entry.outcome && entry.outcome.answer.sql])).toEqual([
      [question, "SELECT max(price) AS price FROM products"],
      [question, "SELECT name, price FROM products ORDER BY price DESC"],
      [question, "SELECT max(price) AS price FROM products"],
    ]);
    expect(audited.some((entry) => "error" in entry.outcome && entry.question === question)).toBe(true);
    // A pick answers that question only: nothing was saved in the role's name.
    expect(await kept()).toEqual([]);
  });

  it("keeps a pick written `/* nl#2 remember */;`, saying what it kept", async () => {
    const notices: string[] = [];
    const client = await connect(proxy, notices);
    try {
      await client.query(`/* nl: ${question} */`);
      notices.length = 0;
      const picked = await client.query("/* NL#2 Remember */;");
      expect(picked.rows).toEqual([{ price: "30.00" }]);
      // These readings differ in their SQL, not in one phrase: the example alone is kept, for every role (a superuser).
      expect(notices[0]).toBe(
        "nlq: remembered for every role: reading #2's SQL as the verified answer to this question (its readings differed in their SQL, not in the meaning of one phrase).",
      );
    } finally {
      await client.end();
    }
    expect(await kept()).toEqual([
      expect.objectContaining({
        question,
        sql: "SELECT max(price) AS price FROM products",
        source: "picked",
        verifiedBy: upstreamUser,
        sharedWithAllRoles: true,
        provenance: `picked from 3 readings by ${upstreamUser}`,
      }),
    ]);
  });

  it("takes a pick on a connection that answered nothing for the comment it is, as PostgreSQL does", async () => {
    const client = await connect(proxy);
    try {
      // psql sends `select 6; /* nl#1 */;` as two queries: PostgreSQL answers the second with an empty query.
      expect((await client.query("select 6 AS six;")).rows).toEqual([{ six: 6 }]);
      const comment = await client.query("/* nl#1 */;");
      expect([comment.command, comment.rows]).toEqual([null, []]);
      const extended = await client.query({ text: "/* nl#2 */", values: [], name: "no_pick" });
      expect(extended.rows).toEqual([]);
      expect((await client.query("SELECT 3 AS three")).rows).toEqual([{ three: 3 }]);
    } finally {
      await client.end();
    }
  });
});

describe.each([true, false])("follow-up questions over the proxy (native relay %s)", (relayOn) => {
  let proxy: ProxyServer;
  const asked: AnswerQuestionOptions[] = [];

  beforeAll(async () => {
    proxy = await startTestProxy(
      (options) => {
        asked.push(options);
        return answerWith(options, "SELECT 1 AS n");
      },
      { nativeRelay: relayOn },
    );
  });
  afterAll(async () => {
    await proxy?.close();
  });

  const turnsOf = (index: number) => asked[index]?.previousTurns?.map((turn) => turn.question) ?? [];

  it("asks a follow-up with the connection's earlier questions; ordinary SQL, nl!: and a new connection start afresh", async () => {
    const client = await connect(proxy);
    try {
      for (const text of ["orders per country", "and by month?", "only 2026", "top 3", "as a share"]) {
        await client.query(`/* nl: ${text} */`);
      }
      expect(turnsOf(0)).toEqual([]);
      expect(turnsOf(1)).toEqual(["orders per country"]);
      // Bounded: the last three questions.
      expect(turnsOf(4)).toEqual(["and by month?", "only 2026", "top 3"]);
      expect(asked[1]?.previousTurns?.[0]?.sql).toBe("SELECT 1 AS n");

      await client.query("SELECT 1");
      await client.query("/* nl: how many users? */");
      expect(turnsOf(5)).toEqual([]);
      await client.query("/* nl: and admins? */");
      expect(turnsOf(6)).toEqual(["how many users?"]);
      await client.query("/* nl!: revenue last week */");
      expect(turnsOf(7)).toEqual([]);
      await client.query("/* nl: per day? */");
      expect(turnsOf(8)).toEqual(["revenue last week"]);
    } finally {
      await client.end();
    }
    const other = await connect(proxy);
    try {
      await other.query("/* nl: and per hour? */");
      expect(turnsOf(9)).toEqual([]);
    } finally {
      await other.end();
    }
  });
});
