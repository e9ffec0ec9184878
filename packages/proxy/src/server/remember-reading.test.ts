import {
  createQuestionAnswerer,
  KnowledgeStore,
  type MetadataStore,
  openMetadataStore,
  VerifiedExampleStore,
} from "@nlq/adapters";
import { createTestDatabase, dropTestRole, type TestDatabase } from "@nlq/adapters/testing";
import { type AnswerQuestionOptions, answerQuestion, loadSettings } from "@nlq/engine";
import { mockTextResult, stepOf } from "@nlq/engine/testing";
import { MockLanguageModelV3 } from "ai/test";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestProxy, upstreamHost, upstreamPort } from "./proxy.test-helpers";
import type { ProxyServer } from "./proxy-server";

// Rules 2, 3 and 5 of docs/decisions/2026-12-01-readings-knowledge-and-teaching.md through a real proxy and a real
// client: a question whose «name» has two readings is offered both; `/* nl#2 */;` answers with #2 and keeps nothing;
// `/* nl#2 remember */;` keeps it as the role's confirmed reading; a new connection's question that hinges on «name»
// then follows it without asking, and says so. The model is a mock (no real model) that writes what its prompt's
// reading says (the legal name unless told the performer's).

const role = `nlq_remember_${process.pid}`;
const other = `nlq_remember_other_${process.pid}`;
let database: TestDatabase;
let store: MetadataStore;
let proxy: ProxyServer;

const model = new MockLanguageModelV3({
  doGenerate: async (call) => {
    const text = JSON.stringify(call.prompt);
    if (!stepOf(call).startsWith("generate-")) throw new Error(`no answer for step ${stepOf(call)}`);
    const column = text.includes("means singer.performer_name") ? "performer_name" : "artist_name";
    const where = text.includes("from Barbados") ? "Barbados" : "Canada";
    const sql = `SELECT ${column} FROM singer WHERE country = '${where}' ORDER BY ${column}`;
    return mockTextResult(JSON.stringify({ reasoning: "singers", sql }));
  },
});

const settings = { ...loadSettings({ NLQ_PRESET: "balanced" }), summarizeAnswer: false };

function databaseName(): string {
  return new URL(database.url).pathname.slice(1);
}

/**
 * The one composition the proxy answers through (`createQuestionAnswerer`, as `nlq proxy` builds it): it hands the
 * engine the verified examples and knowledge the asking role may see (rule 6); only the model is the test's.
 */
function composedAnswerer() {
  return createQuestionAnswerer({
    store,
    upstreamUrl: `postgresql://${upstreamHost}:${upstreamPort}`,
    answerQuestion: (options: AnswerQuestionOptions) =>
      answerQuestion({ ...options, resolveModel: () => ({ model, id: "mock:model", scripted: false }) }),
  }).answer;
}

beforeAll(async () => {
  await dropTestRole(role);
  await dropTestRole(other);
  database = await createTestDatabase(
    "nlq_remember",
    `CREATE TABLE singer (singer_id integer PRIMARY KEY, artist_name text NOT NULL, performer_name text NOT NULL,
                          country text NOT NULL);
     INSERT INTO singer VALUES (1, 'Robyn Fenty', 'Rihanna', 'Barbados'), (2, 'Abel Tesfaye', 'The Weeknd', 'Canada'),
                               (3, 'Aubrey Graham', 'Drake', 'Canada');
     CREATE ROLE ${role} LOGIN; CREATE ROLE ${other} LOGIN;
     GRANT SELECT ON singer TO ${role}, ${other};`,
  );
  store = await openMetadataStore({ directory: "memory://" });
  proxy = await startTestProxy(composedAnswerer(), {
    settings,
    readingConfirmations: { database: store.database, administratorRole: `nlq_remember_admins_${process.pid}` },
  });
});
afterAll(async () => {
  await proxy?.close();
  await store?.close();
  await database?.drop();
  await dropTestRole(role);
  await dropTestRole(other);
});

async function connect(user: string, notices: string[]): Promise<pg.Client> {
  const client = new pg.Client({ host: upstreamHost, port: proxy.address.port, user, database: databaseName() });
  client.on("notice", (notice) => notices.push(`${notice.message}${notice.detail ? ` | ${notice.detail}` : ""}`));
  await client.connect();
  return client;
}

const kept = async (asking: string) => ({
  knowledge: await new KnowledgeStore(store.database).visibleTo(
    `${upstreamHost}:${upstreamPort}/${databaseName()}`,
    asking,
  ),
  examples: await new VerifiedExampleStore(store.database).visibleTo(
    `${upstreamHost}:${upstreamPort}/${databaseName()}`,
    asking,
  ),
});

describe("a pick answers, a confirmation teaches (proxy)", () => {
  it("offers both readings, keeps nothing on nl#2, keeps nl#2 remember, and a new connection follows it", async () => {
    const notices: string[] = [];
    const first = await connect(role, notices);
    try {
      const asked = await first.query("/* nl: What is the name of every singer from Canada? */");
      expect(asked.rows).toEqual([{ artist_name: "Abel Tesfaye" }, { artist_name: "Aubrey Graham" }]);
      expect(notices).toContain(
        "nlq: which did you mean? the question has 2 readings whose results differ; these rows are #1's, run /* nl#2 */; to see #2's instead (/* nl#2 remember */; also keeps it from now on) | «name» can mean singer.artist_name (#1) or singer.performer_name (#2), and they return different rows",
      );
      expect(
        notices.some((notice) => notice.startsWith("nlq: #2, 1 of 3 candidates, «name» = singer.performer_name:")),
      ).toBe(true);

      const picked = await first.query("/* nl#2 */;");
      expect(picked.rows).toEqual([{ performer_name: "Drake" }, { performer_name: "The Weeknd" }]);
      expect(await kept(role)).toEqual({ knowledge: [], examples: [] });

      notices.length = 0;
      const confirmed = await first.query("/* nl#2 remember */;");
      expect(confirmed.rows).toEqual([{ performer_name: "Drake" }, { performer_name: "The Weeknd" }]);
      expect(notices[0]).toMatch(
        /^nlq: remembered for you: "name" means singer\.performer_name, not singer\.artist_name\. Later questions that hinge on "name" follow it without asking \(knowledge entry [0-9a-f-]+\)\.$/,
      );
    } finally {
      await first.end();
    }
    const { knowledge, examples } = await kept(role);
    expect(knowledge).toEqual([
      expect.objectContaining({
        kind: "reading",
        name: "name",
        author: role,
        sharedWithAllRoles: false,
        provenance: `picked from 2 readings by ${role}`,
      }),
    ]);
    expect(examples).toEqual([
      expect.objectContaining({ question: "What is the name of every singer from Canada?", source: "picked" }),
    ]);

    // A new connection, another question on «name»: the confirmation decides, nothing is asked.
    const later: string[] = [];
    const second = await connect(role, later);
    try {
      const answered = await second.query("/* nl: What is the name of every singer from Barbados? */");
      expect(answered.rows).toEqual([{ performer_name: "Rihanna" }]);
      expect(later.some((notice) => notice.startsWith("nlq: which did you mean?"))).toBe(false);
      expect(later).toContain(
        `nlq: followed a confirmed reading: «name» means singer.performer_name (confirmed by you, ${new Date().toISOString().slice(0, 10)}) | not singer.artist_name`,
      );
    } finally {
      await second.end();
    }

    // Another ordinary role sees none of it: it is still asked.
    const theirs: string[] = [];
    const third = await connect(other, theirs);
    try {
      const answered = await third.query("/* nl: What is the name of every singer from Barbados? */");
      expect(answered.rows).toEqual([{ artist_name: "Robyn Fenty" }]);
      expect(theirs.some((notice) => notice.startsWith("nlq: which did you mean?"))).toBe(true);
    } finally {
      await third.end();
    }
    expect(await kept(other)).toEqual({ knowledge: [], examples: [] });
  });
});
