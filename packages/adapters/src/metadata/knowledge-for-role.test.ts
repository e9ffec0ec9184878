import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPgExecutor } from "../postgres/pg-executor";
import { createTestDatabase, dropTestRole, type TestDatabase } from "../testing/test-database";
import { knowledgeForRole } from "./knowledge-for-role";
import { KnowledgeStore } from "./knowledge-store";
import { type MetadataStore, openMetadataStore } from "./open-metadata-store";

const suffix = Math.random().toString(36).slice(2, 8);
const analyst = `nlq_knowledge_analyst_${suffix}`;

describe("knowledgeForRole", () => {
  let database: TestDatabase;
  let store: MetadataStore;
  let client: pg.Client;

  beforeAll(async () => {
    database = await createTestDatabase(
      "nlq_knowledge_for_role",
      `CREATE TABLE orders (id int PRIMARY KEY, amount_cents int, margin_cents int);
       CREATE TABLE salaries (employee text, amount int);
       CREATE ROLE ${analyst} LOGIN;
       GRANT SELECT (id, amount_cents) ON orders TO ${analyst};`,
    );
    store = await openMetadataStore({ directory: "memory://" });
    client = new pg.Client({ connectionString: database.urlFor(analyst) });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await store?.close();
    await database?.drop();
    await dropTestRole(analyst);
  });

  it("shows a role the shared entries whose every table and column it may read, checked on its own session", async () => {
    const dataSource = "127.0.0.1:5432/shop";
    const knowledge = new KnowledgeStore(store.database);
    const admin = { role: "postgres", administrator: true };
    const save = (name: string, references: string[]) =>
      knowledge.save(
        { dataSource, kind: "metric", name, text: `${name} defined`, references, origin: "manual" },
        admin,
      );
    await save("revenue", ["public.orders", "public.orders.amount_cents"]);
    await save("margin", ["public.orders.margin_cents"]);
    await save("payroll", ["public.salaries"]);
    await save("fiscal year", []);
    await knowledge.save(
      { dataSource, kind: "term", name: "someone else's", text: "private", origin: "manual" },
      { role: "other", administrator: false },
    );
    const shown = await knowledgeForRole({
      database: store.database,
      dataSource,
      role: analyst,
      session: createPgExecutor(client),
      statementTimeoutMilliseconds: 5_000,
    });
    expect(shown.map((row) => row.name).sort()).toEqual(["fiscal year", "revenue"]);
    // The check ran read-only on the role's session and left it as it was.
    expect((await client.query("select current_user")).rows[0].current_user).toBe(analyst);
  });

  it("keeps an entry written by hand without references from a role that may not read what its SQL names", async () => {
    const dataSource = "127.0.0.1:5432/sql-only";
    const knowledge = new KnowledgeStore(store.database);
    const admin = { role: "postgres", administrator: true };
    const save = (name: string, sql: string) =>
      knowledge.save({ dataSource, kind: "metric", name, text: `${name} defined`, sql, origin: "manual" }, admin);
    await save("revenue", "sum(amount_cents) / 100.0");
    await save("margin", "sum(margin_cents)");
    await save("payroll", "(SELECT sum(amount) FROM salaries)");
    await save("qualified payroll", "sum(public.salaries.amount)");
    const options = {
      database: store.database,
      dataSource,
      statementTimeoutMilliseconds: 5_000,
    };
    const shown = await knowledgeForRole({ ...options, role: analyst, session: createPgExecutor(client) });
    expect(shown.map((row) => row.name)).toEqual(["revenue"]);
    const owner = new pg.Client({ connectionString: database.url });
    await owner.connect();
    try {
      const all = await knowledgeForRole({ ...options, role: "postgres", session: createPgExecutor(owner) });
      expect(all.map((row) => row.name).sort()).toEqual(["margin", "payroll", "qualified payroll", "revenue"]);
    } finally {
      await owner.end();
    }
  });
});
