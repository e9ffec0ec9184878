import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPgExecutor } from "../postgres/pg-executor";
import { createTestDatabase, dropTestRole, type TestDatabase } from "../testing/test-database";
import { knowledgeEntryForRole } from "./knowledge-for-role";
import { knowledgeHistoryForRole } from "./knowledge-history-for-role";
import { KnowledgeStore } from "./knowledge-store";
import { type MetadataStore, openMetadataStore } from "./open-metadata-store";

// The one rule of an entry's history on every screen (the web page, `nlq knowledge history`): a role reads the history
// of an entry it may see and read, each version only when it may read what that version named, removed entries by id,
// and who changed it only when that was the role itself (an administrator sees every name).
const suffix = Math.random().toString(36).slice(2, 8);
const analyst = `nlq_knowledge_history_analyst_${suffix}`;
const dataSource = "127.0.0.1:5432/shop";
const admin = { role: "postgres", administrator: true };
const analystEditor = { role: analyst, administrator: false };

describe("knowledgeHistoryForRole and knowledgeEntryForRole", () => {
  let database: TestDatabase;
  let store: MetadataStore;
  let analystClient: pg.Client;
  let adminClient: pg.Client;

  beforeAll(async () => {
    database = await createTestDatabase(
      "nlq_knowledge_history",
      `CREATE TABLE orders (id int PRIMARY KEY, amount_cents int);
       CREATE TABLE salaries (employee text, amount int);
       CREATE ROLE ${analyst} LOGIN;
       GRANT SELECT ON orders TO ${analyst};`,
    );
    store = await openMetadataStore({ directory: "memory://" });
    analystClient = new pg.Client({ connectionString: database.urlFor(analyst) });
    adminClient = new pg.Client({ connectionString: database.url });
    await Promise.all([analystClient.connect(), adminClient.connect()]);
  });
  afterAll(async () => {
    await analystClient?.end();
    await adminClient?.end();
    await store?.close();
    await database?.drop();
    await dropTestRole(analyst);
  });

  const as = (viewer: typeof admin, client: pg.Client) => ({
    database: store.database,
    dataSource,
    viewer,
    session: createPgExecutor(client),
    statementTimeoutMilliseconds: 5_000,
  });

  it("lists the versions a role may read, names only the role itself to it, and keeps a removed entry's", async () => {
    const knowledge = new KnowledgeStore(store.database);
    const { entry } = await knowledge.save(
      { dataSource, kind: "metric", name: "revenue", text: "orders", references: ["public.orders"], origin: "manual" },
      admin,
    );
    await knowledge.update(dataSource, entry.id, { references: ["public.salaries"], text: "with payroll" }, admin);
    await knowledge.update(dataSource, entry.id, { references: ["public.orders"], text: "orders again" }, admin);

    const forAnalyst = await knowledgeHistoryForRole({ ...as(analystEditor, analystClient), id: entry.id });
    expect(forAnalyst.map((change) => [change.action, change.text, change.changedBy])).toEqual([
      ["created", "orders", "another role"],
      ["updated", "orders again", "another role"],
    ]);
    const forAdmin = await knowledgeHistoryForRole({ ...as(admin, adminClient), id: entry.id });
    expect(forAdmin.map((change) => [change.text, change.changedBy])).toEqual([
      ["orders", "you"],
      ["with payroll", "you"],
      ["orders again", "you"],
    ]);
    expect(await knowledgeEntryForRole({ ...as(analystEditor, analystClient), id: entry.id })).toMatchObject({
      id: entry.id,
    });

    // Now naming what the analyst may not read: neither the entry nor any of its history reaches it.
    await knowledge.update(dataSource, entry.id, { references: ["public.salaries"] }, admin);
    expect(await knowledgeEntryForRole({ ...as(analystEditor, analystClient), id: entry.id })).toBeUndefined();
    expect(await knowledgeHistoryForRole({ ...as(analystEditor, analystClient), id: entry.id })).toEqual([]);

    // The analyst's own entry, removed: its history is still the analyst's to read, ending with the removal.
    const own = await knowledge.save(
      { dataSource, kind: "term", name: "order", text: "a row of orders", origin: "manual" },
      analystEditor,
    );
    await knowledge.remove(dataSource, own.entry.id, analystEditor);
    const removed = await knowledgeHistoryForRole({ ...as(analystEditor, analystClient), id: own.entry.id });
    expect(removed.map((change) => [change.action, change.changedBy])).toEqual([
      ["created", "you"],
      ["removed", "you"],
    ]);
    // A role's private entry is not an administrator's to read: administrators see shared entries and suggestions.
    expect(await knowledgeHistoryForRole({ ...as(admin, adminClient), id: own.entry.id })).toEqual([]);
    expect(await knowledgeHistoryForRole({ ...as(analystEditor, analystClient), id: "not-an-id" })).toEqual([]);
  });
});
