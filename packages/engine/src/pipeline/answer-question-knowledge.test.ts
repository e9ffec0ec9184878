import { randomBytes } from "node:crypto";
import { createPgExecutor } from "@nlq/adapters";
import { createTestDatabase, dropTestRole, type TestDatabase } from "@nlq/adapters/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSettings } from "../config/settings";
import type { KnowledgeEntry } from "../contract/knowledge";
import { mockTextModel, stepOf } from "../testing/mock-text-model";
import { answerQuestion } from "./answer-question";

// Knowledge reaches a prompt only when the asking role may read every table and column it names (issue 27).
const role = `nlq_knowledge_reader_${randomBytes(4).toString("hex")}`;
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase(
    "nlq_pipeline_knowledge",
    `CREATE TABLE customers (id integer PRIMARY KEY, name text, country char(2), is_test boolean, secret text);
     CREATE TABLE orders (id integer PRIMARY KEY, customer_id integer REFERENCES customers (id), total_cents integer);
     COMMENT ON COLUMN customers.name IS 'Full name';
     INSERT INTO customers VALUES (1, 'Ada', 'GB', false, 's1');
     INSERT INTO orders VALUES (1, 1, 1050);
     CREATE ROLE ${role} LOGIN;
     GRANT SELECT (id, name, country, is_test) ON customers TO ${role};
     GRANT SELECT ON orders TO ${role};`,
  );
});
afterAll(async () => {
  await database?.drop();
  await dropTestRole(role);
});

const entry = (
  fields: Partial<KnowledgeEntry> & Pick<KnowledgeEntry, "id" | "kind" | "name" | "text">,
): KnowledgeEntry => ({
  references: [],
  origin: "manual",
  sharedWithAllRoles: true,
  updatedAt: "2026-11-30T10:00:00.000Z",
  ...fields,
});

const knowledge: KnowledgeEntry[] = [
  entry({
    id: "metric",
    kind: "metric",
    name: "net revenue",
    text: "Order totals in dollars, test customers excluded.",
    sql: "sum(orders.total_cents) / 100.0",
    references: ["public.orders.total_cents", "public.customers.is_test"],
  }),
  entry({
    id: "hidden-rule",
    kind: "rule",
    name: "net revenue exclusions",
    text: "Leave out customers whose secret is set.",
    sql: "customers.secret IS NULL",
    references: ["public.customers.secret"],
  }),
  // Written by hand without references: its SQL alone names the column the role may not read.
  entry({
    id: "hidden-sql-rule",
    kind: "rule",
    name: "net revenue risk filter",
    text: "Net revenue leaves out flagged customers.",
    sql: "customers.secret IS NULL",
  }),
  entry({ id: "unrelated", kind: "term", name: "churned account", text: "No login in a year." }),
  entry({
    id: "country",
    kind: "description",
    name: "public.customers.country",
    text: "ISO 3166 alpha-2 code",
    references: ["public.customers.country"],
  }),
  entry({
    id: "secret",
    kind: "description",
    name: "public.customers.secret",
    text: "Internal risk flag",
    references: ["public.customers.secret"],
  }),
];

describe("answerQuestion with knowledge", () => {
  it("puts the readable entries that fit the question, the descriptions and the session's date in the prompts, and says which it used", async () => {
    const client = new pg.Client({ connectionString: database.urlFor(role) });
    await client.connect();
    try {
      await client.query("SET TimeZone = 'Asia/Tokyo'");
      const prompts: string[] = [];
      const model = mockTextModel((call) => {
        prompts.push(JSON.stringify(call.prompt));
        if (stepOf(call) !== "generate-candidate") throw new Error(`unexpected step ${stepOf(call)}`);
        return JSON.stringify({
          reasoning: "sum the totals per country",
          sql: "SELECT c.country, sum(o.total_cents) / 100.0 AS net_revenue FROM orders o JOIN customers c ON c.id = o.customer_id WHERE NOT c.is_test GROUP BY c.country",
        });
      });
      const settings = { ...loadSettings({ NLQ_PRESET: "fast" }), summarizeAnswer: false };
      const answer = await answerQuestion({
        question: "What is the net revenue per country?",
        session: createPgExecutor(client),
        settings,
        knowledge,
        resolveModel: () => ({ model, id: "mock:model", scripted: false }),
      });
      const prompt = prompts.join("\n");
      expect(prompt).toContain(
        'Metric \\"net revenue\\": Order totals in dollars, test customers excluded. SQL: sum(orders.total_cents) / 100.0',
      );
      expect(prompt).toContain("ISO 3166 alpha-2 code");
      // A column COMMENT ON describes, with no entry, keeps its comment.
      expect(prompt).toContain("Full name");
      // The rule and the description naming a column the role may not read never reach it; nor does the unrelated term.
      expect(prompt).not.toContain("secret");
      expect(prompt).not.toContain("Internal risk flag");
      expect(prompt).not.toContain("flagged customers");
      expect(prompt).not.toContain("churned account");
      expect(prompt).toMatch(/Today is \d{4}-\d{2}-\d{2} in the session's time zone \(Asia\/Tokyo\)/);
      expect(answer.knowledgeUsed).toEqual([
        { id: "metric", kind: "metric", name: "net revenue" },
        { id: "country", kind: "description", name: "public.customers.country" },
      ]);
      // The session is as it was.
      expect((await client.query("SHOW TimeZone")).rows[0].TimeZone).toBe("Asia/Tokyo");
    } finally {
      await client.end();
    }
  });
});
