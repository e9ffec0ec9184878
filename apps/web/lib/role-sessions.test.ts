import { randomBytes } from "node:crypto";
import {
  createPgExecutor,
  createQuestionAnswerer,
  ensureDataSource,
  indexCatalog,
  type MetadataStore,
  openMetadataStore,
} from "@nlq/adapters";
import { createTestDatabase, dropTestRole, type TestDatabase } from "@nlq/adapters/testing";
import { type AnswerQuestionOptions, loadSettings } from "@nlq/engine";
import { mockTextModel } from "@nlq/engine/testing";
import { DefaultChatTransport, readUIMessageStream } from "ai";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handleChatRequest } from "./chat-handler";
import type { NlqUIMessage } from "./chat-message";
import { openPoolSession } from "./pg-session";
import { createRoleSessions, type RoleSession, type RoleSessions } from "./role-sessions";
import { SignInRejectedError } from "./web-errors";

// Two roles on one database: alice may read `payroll` and her own `account` rows, bob only his own `account` rows.
const suffix = randomBytes(4).toString("hex");
const alice = `nlq_web_alice_${suffix}`;
const bob = `nlq_web_bob_${suffix}`;
const setup = `
CREATE TABLE account (id integer PRIMARY KEY, owner name NOT NULL, label text);
INSERT INTO account VALUES (1, '${alice}', 'Alice Savings'), (2, '${alice}', 'Alice Current'), (3, '${bob}', 'Bob Only');
ALTER TABLE account ENABLE ROW LEVEL SECURITY;
CREATE POLICY own_rows ON account FOR SELECT USING (owner = current_user);
CREATE TABLE payroll (id integer PRIMARY KEY, employee text, salary_amount numeric);
INSERT INTO payroll VALUES (1, 'Pat', 5000);
CREATE ROLE ${alice} LOGIN PASSWORD 'alice-secret';
CREATE ROLE ${bob} LOGIN PASSWORD 'bob-secret';
GRANT SELECT ON account TO ${alice}, ${bob};
GRANT SELECT ON payroll TO ${alice};
ANALYZE;
`;

/** Models for every step that record the prompts they see; the generator always asks for the account labels. */
function recordingModels() {
  const prompts: string[] = [];
  const outputs: Record<string, unknown> = {
    "extract-keywords": { keywords: ["account"] },
    "generate-candidate": { reasoning: "labels", sql: "SELECT label FROM account ORDER BY id" },
  };
  const resolveModel = (step: string) => ({
    id: `mock:${step}`,
    scripted: false,
    model: mockTextModel((call) => {
      prompts.push(`${step}: ${JSON.stringify(call.prompt)}`);
      if (!(step in outputs)) throw new Error(`unexpected step ${step}`);
      return JSON.stringify(outputs[step]);
    }),
  });
  return { prompts, resolveModel };
}

let database: TestDatabase;
let store: MetadataStore;
let sessions: RoleSessions;

beforeAll(async () => {
  database = await createTestDatabase("nlq_web_roles", setup);
  store = await openMetadataStore({ directory: "memory://" });
  const superuser = new pg.Client({ connectionString: database.url });
  await superuser.connect();
  try {
    const dataSource = await ensureDataSource(store.database, { url: database.url });
    await indexCatalog({
      executor: createPgExecutor(superuser),
      database: store.database,
      dataSourceId: dataSource.id,
    });
  } finally {
    await superuser.end();
  }
  sessions = createRoleSessions({ databaseUrl: database.url });
});

afterAll(async () => {
  await sessions?.close();
  await store?.close();
  await database?.drop();
  await dropTestRole(alice);
  await dropTestRole(bob);
});

/** Asks one question through the chat handler on the user's own connections, with the catalog index. */
async function askAs(session: RoleSession, question: string) {
  const models = recordingModels();
  const catalogSources: string[] = [];
  const { answer } = createQuestionAnswerer({ store, upstreamUrl: database.url, backgroundValueIndexes: true });
  const transport = new DefaultChatTransport<NlqUIMessage>({
    api: "http://nlq.test/api/chat",
    fetch: async (input, init) =>
      handleChatRequest(new Request(input, init), {
        answer: (options: AnswerQuestionOptions) =>
          answer({
            ...options,
            resolveModel: models.resolveModel,
            onEvent: (event) => {
              if (event.type === "catalog-end") catalogSources.push(event.source);
              options.onEvent?.(event);
            },
          }),
        settings: () => loadSettings({}),
        openSession: (abortSignal) => openPoolSession(session.pool, createPgExecutor, abortSignal),
      }),
  });
  const chunks = await transport.sendMessages({
    chatId: "chat",
    messageId: undefined,
    trigger: "submit-message",
    abortSignal: undefined,
    messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: question }] }],
  });
  let last: NlqUIMessage | undefined;
  for await (const message of readUIMessageStream<NlqUIMessage>({ stream: chunks })) last = message;
  const part = last?.parts.find((candidate) => candidate.type === "data-answer");
  const error = last?.parts.find((candidate) => candidate.type === "data-error");
  return {
    rows: part?.type === "data-answer" ? part.data.rows : undefined,
    error: error?.type === "data-error" ? error.data : undefined,
    prompts: models.prompts.join("\n"),
    catalogSources,
  };
}

describe("createRoleSessions", () => {
  it("signs in as the role PostgreSQL authenticates and refuses a role that does not exist", async () => {
    const session = await sessions.signIn(alice, "alice-secret");
    expect(session.role).toBe(alice);
    expect(session.database).toBe(database.name);
    expect(session.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(sessions.get(session.id)).toBe(session);
    const refused = sessions.signIn(`nlq_web_nobody_${suffix}`, "x");
    await expect(refused).rejects.toBeInstanceOf(SignInRejectedError);
    await expect(refused).rejects.toMatchObject({ code: "28000" });
    await expect(refused).rejects.not.toThrow(/nobody/);
    await sessions.signOut(session.id);
    expect(sessions.get(session.id)).toBeUndefined();
  });

  it("answers each user as their own role: different rows (RLS) and different tables in the index's catalog", async () => {
    const aliceSession = await sessions.signIn(alice, "alice-secret");
    const bobSession = await sessions.signIn(bob, "bob-secret");
    const asAlice = await askAs(aliceSession, "which accounts are there?");
    const asBob = await askAs(bobSession, "which accounts are there?");
    expect(asAlice.error).toBeUndefined();
    expect(asAlice.catalogSources).toEqual(["index"]);
    expect(asBob.catalogSources).toEqual(["index"]);
    expect(asAlice.rows).toEqual([["Alice Savings"], ["Alice Current"]]);
    expect(asBob.rows).toEqual([["Bob Only"]]);
    // Retrieval and prompts follow the role: payroll is in alice's prompts, never in bob's.
    expect(asAlice.prompts).toContain("payroll");
    expect(asBob.prompts).toContain("account");
    expect(asBob.prompts).not.toContain("payroll");
    expect(asBob.prompts).not.toContain("salary_amount");
  });

  it("ends sessions idle for longer than the idle time and closes their pools", async () => {
    let clock = 1_000_000;
    const timed = createRoleSessions({ databaseUrl: database.url, idleMilliseconds: 60_000, now: () => clock });
    try {
      const session = await timed.signIn(bob, "bob-secret");
      clock += 59_000;
      expect(timed.get(session.id)).toBe(session);
      clock += 59_000;
      expect(timed.get(session.id)).toBe(session);
      clock += 60_000;
      await timed.sweep();
      expect(timed.get(session.id)).toBeUndefined();
      expect(session.pool.ended).toBe(true);
    } finally {
      await timed.close();
    }
  });
});
