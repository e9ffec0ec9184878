import { randomBytes } from "node:crypto";
import { createQuestionAnswerer, type MetadataStore, openMetadataStore, VerifiedExampleStore } from "@nlq/adapters";
import { createTestDatabase, dropTestRole, type TestDatabase } from "@nlq/adapters/testing";
import { type AnswerQuestionOptions, answerQuestion, loadSettings } from "@nlq/engine";
import { mockTextModel, promptText } from "@nlq/engine/testing";
import { DefaultChatTransport, readUIMessageStream } from "ai";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handleChatRequest } from "./chat-handler";
import type { NlqUIMessage } from "./chat-message";
import { examplesForUser, exampleView } from "./examples-for-user";
import { pageSuggestions } from "./page-suggestions";
import { openUserSession } from "./user-session";
import { loadWebSettings } from "./web-settings";
import type { WebUser } from "./web-user";
import { isAdministrator } from "./workspace-request";

// What one role saves must never reach another (issue 17). Two roles on a real PostgreSQL with row-level security:
// A — an example administrator — sees every customer and may read email; B sees only Oslo's customers and has no
// grant on customers.email. A's examples are shared with every role, but one reaches B's prompt, B's examples list
// or B's suggestion chips only when B may read what its SQL uses, the rows of its literals included.
const suffix = randomBytes(4).toString("hex");
const roleA = `nlq_flow_a_${suffix}`;
const roleB = `nlq_flow_b_${suffix}`;
const administrators = `nlq_flow_admins_${suffix}`;
let database: TestDatabase;
let store: MetadataStore;
let userA: WebUser;
let userB: WebUser;

const secret = {
  question: "count customers by email janne_anggreny@web.example",
  sql: "SELECT count(*) FROM customers WHERE email = 'janne_anggreny@web.example'",
};
const bergen = {
  question: "how many customers are there in Bergen?",
  sql: "SELECT count(*) FROM customers WHERE city = 'Bergen'",
};
const oslo = {
  question: "how many customers are there in Oslo?",
  sql: "SELECT count(*) FROM customers WHERE city = 'Oslo'",
};

function userOf(role: string): WebUser {
  return {
    role,
    dataSource: `127.0.0.1:5432/${database.name}`,
    pool: new pg.Pool({ connectionString: database.urlFor(role), max: 2 }),
    singleUser: false,
  };
}

beforeAll(async () => {
  database = await createTestDatabase(
    "nlq_flow",
    `CREATE ROLE ${roleA} LOGIN; CREATE ROLE ${roleB} LOGIN; CREATE ROLE ${administrators};
     GRANT ${administrators} TO ${roleA};
     CREATE TABLE customers (id integer PRIMARY KEY, name text, city text, email text);
     INSERT INTO customers VALUES (1, 'Janne', 'Bergen', 'janne_anggreny@web.example'), (2, 'Ola', 'Oslo', 'ola@web.example');
     ALTER TABLE customers ENABLE ROW LEVEL SECURITY;
     CREATE POLICY everything ON customers TO ${roleA} USING (true);
     CREATE POLICY oslo ON customers TO ${roleB} USING (city = 'Oslo');
     GRANT SELECT ON customers TO ${roleA};
     GRANT SELECT (id, name, city) ON customers TO ${roleB};`,
  );
  store = await openMetadataStore({ directory: "memory://" });
  userA = userOf(roleA);
  userB = userOf(roleB);
  // A saves its examples as the feedback and examples routes do: shared with every role because A is an administrator.
  const examples = new VerifiedExampleStore(store.database);
  const shared = await isAdministrator(userA, administrators);
  for (const example of [secret, bergen, oslo]) {
    await examples.save({
      ...example,
      dataSource: userA.dataSource,
      source: "corrected",
      verifiedBy: roleA,
      sharedWithAllRoles: shared,
    });
  }
});
afterAll(async () => {
  await userA?.pool.end();
  await userB?.pool.end();
  await store?.close();
  await database?.drop();
  for (const role of [roleA, roleB, administrators]) await dropTestRole(role);
});

/** Every prompt the (mock) model received while `user` asked `question` through the chat route's handler. */
async function promptsOf(user: WebUser, question: string): Promise<string> {
  const prompts: string[] = [];
  const model = mockTextModel((call) => {
    prompts.push(promptText(call));
    return JSON.stringify({ reasoning: "count them", sql: "SELECT count(*) FROM customers" });
  });
  const settings = { ...loadSettings({ NLQ_PRESET: "fast" }), summarizeAnswer: false };
  const transport = new DefaultChatTransport<NlqUIMessage>({
    api: "http://nlq.test/api/chat",
    fetch: async (input, init) =>
      handleChatRequest(new Request(input, init), {
        // The one composition every surface answers through: it loads the examples the asking role may be shown.
        answer: createQuestionAnswerer({
          store,
          upstreamUrl: `postgresql://${new URL(database.url).host}`,
          answerQuestion: (options: AnswerQuestionOptions) =>
            answerQuestion({ ...options, resolveModel: () => ({ model, id: "mock:model", scripted: false }) }),
        }).answer,
        settings: () => settings,
        openSession: () => openUserSession(user),
        logError: (error) => {
          throw error;
        },
      }),
  });
  const chunks = await transport.sendMessages({
    chatId: "chat",
    messageId: undefined,
    trigger: "submit-message",
    abortSignal: undefined,
    messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: question }] }],
  });
  for await (const message of readUIMessageStream<NlqUIMessage>({ stream: chunks })) {
    const failure = message.parts.find((part) => part.type === "data-error");
    if (failure) throw new Error(`the question failed: ${JSON.stringify(failure)}`);
  }
  return prompts.join("\n");
}

describe("verified examples across two roles under row-level security", () => {
  it("the administrator's own prompt, list and chips have its examples", async () => {
    expect(await isAdministrator(userA, administrators)).toBe(true);
    const prompt = await promptsOf(userA, "count customers by email");
    expect(prompt).toContain(secret.sql);
    const listed = (await examplesForUser(userA, store, 200)).map((example) => exampleView(example, roleA));
    expect(listed.map((example) => example.question).sort()).toEqual(
      [bergen, oslo, secret].map((e) => e.question).sort(),
    );
    expect(listed.every((example) => example.yours && example.shared)).toBe(true);
  });

  it("B's prompt, examples list and suggestion chips never hold A's literal or the column B may not read", async () => {
    expect(await isAdministrator(userB, administrators)).toBe(false);
    // Questions similar to A's examples (word overlap), in B's own words: the lookup ranks A's pairs, the checks drop them.
    for (const question of ["count customers by email", "how many customers are there in Trondheim?"]) {
      const prompt = await promptsOf(userB, question);
      expect(prompt).not.toContain(secret.sql);
      expect(prompt).not.toContain("janne_anggreny");
      expect(prompt).not.toContain("Bergen");
      expect(prompt).not.toContain("email =");
    }
    // A shared example B may read does reach B's prompt.
    expect(await promptsOf(userB, "how many customers are there in Oslo?")).toContain(oslo.sql);

    const listed = (await examplesForUser(userB, store, 200)).map((example) => exampleView(example, roleB));
    expect(listed.map((example) => example.question)).toEqual([oslo.question]);
    expect(listed[0]).toMatchObject({ yours: false, shared: true });
    // Authorship is not shown to other roles: A's name appears nowhere in what B's list answers.
    expect(JSON.stringify(listed)).not.toContain(roleA);

    const chips = await pageSuggestions(userB, loadWebSettings({}), [], async () => store);
    expect(chips).toContain(oslo.question);
    expect(chips.join("\n")).not.toContain("janne_anggreny");
    expect(chips).not.toContain(bergen.question);
  });

  it("a role's own examples reach only that role; a non-administrator's are never shared", async () => {
    const examples = new VerifiedExampleStore(store.database);
    const own = { question: "list the customer names", sql: "SELECT name FROM customers" };
    await examples.save({
      ...own,
      dataSource: userB.dataSource,
      source: "accepted",
      verifiedBy: roleB,
      sharedWithAllRoles: await isAdministrator(userB, administrators),
    });
    expect((await examplesForUser(userB, store, 200)).map((example) => example.question)).toContain(own.question);
    expect((await examplesForUser(userA, store, 200)).map((example) => example.question)).not.toContain(own.question);
    expect(await promptsOf(userA, "list the customer names")).not.toContain(own.sql);
  });
});
