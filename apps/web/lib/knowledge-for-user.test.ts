import { randomBytes } from "node:crypto";
import { createPgExecutor, KnowledgeStore, type MetadataStore, openMetadataStore } from "@nlq/adapters";
import { createTestDatabase, dropTestRole, type TestDatabase } from "@nlq/adapters/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type KnowledgeViewer, knowledgeForUser, knowledgeHistoryForUser, readableEntry } from "./knowledge-for-user";

// What the knowledge page shows each role, on a real PostgreSQL: the administrator's shared entries only where the role
// may read what they name, never another ordinary role's entries, and history versions filtered the same way.
const suffix = randomBytes(4).toString("hex");
const analyst = `nlq_kp_analyst_${suffix}`;
const other = `nlq_kp_other_${suffix}`;
const curator = `nlq_kp_curator_${suffix}`;
let target: TestDatabase;
let store: MetadataStore;
const dataSource = "127.0.0.1:5432/knowledge_page";
const clients: pg.Client[] = [];

beforeAll(async () => {
  target = await createTestDatabase(
    "nlq_knowledge_page",
    `CREATE ROLE ${analyst} LOGIN; CREATE ROLE ${other} LOGIN; CREATE ROLE ${curator} LOGIN;
     CREATE TABLE orders (id integer PRIMARY KEY, total_cents integer);
     CREATE TABLE salaries (id integer PRIMARY KEY, amount integer);
     GRANT SELECT ON orders TO ${analyst}, ${other}, ${curator};
     GRANT SELECT ON salaries TO ${curator};`,
  );
  store = await openMetadataStore({ directory: "memory://" });
});
afterAll(async () => {
  for (const client of clients) await client.end();
  await store?.close();
  await target?.drop();
  for (const role of [analyst, other, curator]) await dropTestRole(role);
});

async function viewerFor(role: string, administrator: boolean): Promise<KnowledgeViewer> {
  const client = new pg.Client({ connectionString: target.urlFor(role) });
  await client.connect();
  clients.push(client);
  return { role, administrator, dataSource, session: createPgExecutor(client), statementTimeoutMilliseconds: 5_000 };
}

describe("knowledgeForUser", () => {
  it("shows a role the shared entries it may read, its own, and never another role's", async () => {
    const knowledge = new KnowledgeStore(store.database);
    const admin = { role: curator, administrator: true };
    const net = await knowledge.save(
      {
        dataSource,
        kind: "metric",
        name: "net revenue",
        text: "orders in euros",
        sql: "sum(total_cents) / 100.0",
        references: ["public.orders.total_cents"],
        origin: "manual",
      },
      admin,
    );
    await knowledge.save(
      {
        dataSource,
        kind: "term",
        name: "payroll",
        text: "what salaries add up to",
        references: ["public.salaries"],
        origin: "manual",
      },
      admin,
    );
    await knowledge.save(
      { dataSource, kind: "rule", name: "other's rule", text: "private", origin: "manual" },
      { role: other, administrator: false },
    );
    await knowledge.suggest({ dataSource, kind: "term", name: "big order", text: "over 100 euros" }, analyst);

    const analystView = await knowledgeForUser(store.database, await viewerFor(analyst, false));
    expect(analystView.entries.map((entry) => [entry.name, entry.shared, entry.yours])).toEqual([
      ["net revenue", true, false],
    ]);
    expect(analystView.suggestions.map((entry) => [entry.name, entry.yours, entry.proposedBy])).toEqual([
      ["big order", true, undefined],
    ]);
    expect(JSON.stringify(analystView)).not.toContain(curator);
    expect(JSON.stringify(analystView)).not.toContain(other);

    const curatorView = await knowledgeForUser(store.database, await viewerFor(curator, true));
    expect(curatorView.entries.map((entry) => entry.name).sort()).toEqual(["net revenue", "payroll"]);
    expect(curatorView.suggestions.map((entry) => entry.proposedBy)).toEqual([analyst]);

    // The payroll entry names a table the analyst may not read: not found, as if it did not exist.
    const payroll = curatorView.entries.find((entry) => entry.name === "payroll")!;
    expect(await readableEntry(store.database, await viewerFor(analyst, false), payroll.id)).toBeUndefined();
    expect(await knowledgeHistoryForUser(store.database, await viewerFor(analyst, false), payroll.id)).toEqual([]);

    // An edit keeps the old version in the history; a version naming what the role cannot read is left out.
    await knowledge.update(dataSource, net.entry.id, { references: ["public.salaries"] }, admin);
    await knowledge.update(dataSource, net.entry.id, { references: ["public.orders"], text: "orders, net" }, admin);
    const history = await knowledgeHistoryForUser(store.database, await viewerFor(analyst, false), net.entry.id);
    expect(history.map((change) => [change.action, change.text, change.changedBy])).toEqual([
      ["created", "orders in euros", "another role"],
      ["updated", "orders, net", "another role"],
    ]);
  });
});
