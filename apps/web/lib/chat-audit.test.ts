import { randomBytes } from "node:crypto";
import { type MetadataStore, openMetadataStore } from "@nlq/adapters";
import {
  uncheckedAuditEntries as auditEntries,
  createTestDatabase,
  dropTestRole,
  type TestDatabase,
} from "@nlq/adapters/testing";
import { type AnswerQuestionOptions, answerQuestion, loadSettings } from "@nlq/engine";
import { mockTextModel } from "@nlq/engine/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handleChatRequest } from "./chat-handler";
import { openUserSession } from "./user-session";
import type { WebUser } from "./web-user";

// The web path of the audit trail (issue 19 item 5): each chat question is recorded with surface `web`, the signed-in
// user's role, the request's forwarded address and user agent, the SQL that ran and a row count — never the rows.
const role = `nlq_web_audit_${randomBytes(4).toString("hex")}`;
let target: TestDatabase;
let metadata: TestDatabase;
let store: MetadataStore;
let user: WebUser;

beforeAll(async () => {
  target = await createTestDatabase(
    "nlq_web_audit",
    `CREATE ROLE ${role} LOGIN;
     CREATE TABLE customers (id integer PRIMARY KEY, name text);
     INSERT INTO customers VALUES (1, 'Janne Anggreny'), (2, 'Ola Nordmann');
     GRANT SELECT ON customers TO ${role};`,
  );
  metadata = await createTestDatabase("nlq_web_audit_store");
  store = await openMetadataStore({ url: metadata.url });
  user = {
    role,
    dataSource: `127.0.0.1:5432/${target.name}`,
    pool: new pg.Pool({ connectionString: target.urlFor(role), max: 2 }),
    singleUser: false,
  };
});
afterAll(async () => {
  await user?.pool.end();
  await store?.close();
  await metadata?.drop();
  await target?.drop();
  await dropTestRole(role);
});

async function ask(question: string, sql: string): Promise<void> {
  const model = mockTextModel(() => JSON.stringify({ reasoning: "list them", sql }));
  const response = await handleChatRequest(
    new Request("http://nlq.test/api/chat", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-forwarded-for": "203.0.113.9, 10.0.0.1",
        "user-agent": "Firefox/140",
      },
      body: JSON.stringify({ messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: question }] }] }),
    }),
    {
      answer: (options: AnswerQuestionOptions) =>
        answerQuestion({ ...options, resolveModel: () => ({ model, id: "mock:model", scripted: false }) }),
      settings: () => ({ ...loadSettings({ NLQ_PRESET: "fast" }), summarizeAnswer: false }),
      openSession: () => openUserSession(user),
      audit: { trail: store.auditTrail, asker: { surface: "web", role: user.role, dataSource: user.dataSource } },
    },
  );
  await response.text();
}

describe("the chat handler's audit trail", () => {
  it("records the answered and the failed question with surface web, the role, address and user agent, no rows", async () => {
    await ask("list the customers", "SELECT name FROM customers ORDER BY id");
    await ask("list the secrets", "SELECT * FROM pg_authid");
    expect(await store.auditTrail.flush()).toBe(true);
    const entries = await auditEntries(store.database, { dataSource: user.dataSource, role, limit: 10 });
    expect(entries).toHaveLength(2);
    const answered = entries.find((entry) => entry.question === "list the customers");
    expect(answered).toMatchObject({
      surface: "web",
      role,
      clientAddress: "203.0.113.9",
      applicationName: "Firefox/140",
      sql: "SELECT name FROM customers ORDER BY id",
      ok: true,
      rows: 2,
      model: "mock:model",
    });
    expect(answered?.confidenceBasis).toEqual(expect.any(String));
    const failed = entries.find((entry) => entry.question === "list the secrets");
    expect(failed).toMatchObject({ surface: "web", role, ok: false, sql: null });
    expect(failed?.errorCode).toMatch(/^[0-9A-Z]{5}$/);
    expect(JSON.stringify(entries)).not.toContain("Janne");
  });
});
