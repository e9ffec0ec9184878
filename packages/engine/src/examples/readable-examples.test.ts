import { randomBytes } from "node:crypto";
import { createPgExecutor } from "@nlq/adapters";
import { createTestDatabase, dropTestRole, type TestDatabase } from "@nlq/adapters/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readableExamples } from "./readable-examples";

// Two roles under row-level security: A sees every customer and may read email; B sees only Oslo's customers and has
// no grant on email. Which verified examples may each be shown?
const suffix = randomBytes(4).toString("hex");
const roleA = `nlq_ex_a_${suffix}`;
const roleB = `nlq_ex_b_${suffix}`;
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase(
    "nlq_examples",
    `CREATE ROLE ${roleA} LOGIN; CREATE ROLE ${roleB} LOGIN;
     CREATE TABLE customers (id integer PRIMARY KEY, name text, city text, email text);
     INSERT INTO customers VALUES (1, 'Janne', 'Bergen', 'janne@web.example'), (2, 'Ola', 'Oslo', 'ola@web.example');
     CREATE VIEW locking AS SELECT pg_catalog.pg_advisory_lock(7003)::text AS city;
     ALTER TABLE customers ENABLE ROW LEVEL SECURITY;
     CREATE POLICY everything ON customers TO ${roleA} USING (true);
     CREATE POLICY oslo ON customers TO ${roleB} USING (city = 'Oslo');
     GRANT SELECT ON customers, locking TO ${roleA};
     GRANT SELECT (id, name, city) ON customers TO ${roleB};
     GRANT SELECT ON locking TO ${roleB};`,
  );
});
afterAll(async () => {
  await database?.drop();
  await dropTestRole(roleA);
  await dropTestRole(roleB);
});

async function shownTo(role: string, sqls: readonly string[], limit?: number): Promise<string[]> {
  const client = new pg.Client({ connectionString: database.urlFor(role) });
  await client.connect();
  try {
    const examples = sqls.map((sql, index) => ({ question: `question ${index}`, sql }));
    const kept = await readableExamples({
      session: createPgExecutor(client),
      examples,
      statementTimeoutMilliseconds: 2_000,
      ...(limit === undefined ? {} : { limit }),
    });
    // The session is as before: no transaction left open.
    expect((await client.query("SELECT pg_catalog.now() = pg_catalog.statement_timestamp() AS idle")).rows).toEqual([
      { idle: true },
    ]);
    return kept.map((example) => example.sql);
  } finally {
    await client.end();
  }
}

const withEmail = "SELECT count(*) FROM customers WHERE email = 'janne@web.example'";
const bergen = "SELECT count(*) FROM customers WHERE city = 'Bergen'";
const notBergen = "SELECT count(*) FROM customers WHERE city <> 'Bergen'";
const oslo = "SELECT name FROM customers c WHERE c.city IN ('Oslo')";
const plain = "SELECT count(*) FROM customers";
const emailColumn = "SELECT email FROM customers";

describe("readableExamples", () => {
  it("keeps for each role only the pairs whose tables, columns and literal rows it may read", async () => {
    const all = [withEmail, bergen, notBergen, oslo, plain, emailColumn];
    expect(await shownTo(roleA, all)).toEqual(all);
    // B: no grant on email (the literal's column, or a selected one), and RLS hides Bergen — even inside count(*) or
    // behind <>, where running the example would return a row.
    expect(await shownTo(roleB, all)).toEqual([oslo, plain]);
  });

  it("does not probe the literals of the role's own pairs, but still checks their privileges", async () => {
    const client = new pg.Client({ connectionString: database.urlFor(roleB) });
    await client.connect();
    try {
      const cte = "WITH c AS (SELECT city FROM customers) SELECT count(*) FROM c WHERE city = 'Oslo'";
      const examples = [cte, bergen, withEmail].map((sql) => ({ question: sql, sql, own: true }));
      const kept = await readableExamples({
        session: createPgExecutor(client),
        examples,
        ownExample: (example) => example.own,
        statementTimeoutMilliseconds: 2_000,
      });
      expect(kept.map((example) => example.sql)).toEqual([cte, bergen]);
    } finally {
      await client.end();
    }
  });

  it("drops SQL that fails validation or cannot be traced, and stops at the limit", async () => {
    expect(
      await shownTo(roleA, [
        "DELETE FROM customers",
        "SELECT pg_catalog.pg_advisory_lock(1)",
        "SELECT count(*) FROM (SELECT email FROM customers) s WHERE s.email = 'ola@web.example'",
        "SELECT count(*) FROM nosuch",
        plain,
        oslo,
      ]),
    ).toEqual([plain, oslo]);
    expect(await shownTo(roleA, [plain, oslo, bergen], 2)).toEqual([plain, oslo]);
    const client = new pg.Client({ connectionString: database.urlFor(roleA) });
    await client.connect();
    try {
      const spent = await readableExamples({
        session: createPgExecutor(client),
        examples: [{ question: "q", sql: plain }],
        statementTimeoutMilliseconds: 2_000,
        budgetMilliseconds: 0,
      });
      expect(spent).toEqual([]);
    } finally {
      await client.end();
    }
  });

  it("never runs a view's body to check a literal", async () => {
    const client = new pg.Client({ connectionString: database.urlFor(roleA) });
    await client.connect();
    try {
      const kept = await readableExamples({
        session: createPgExecutor(client),
        examples: [{ question: "locked?", sql: "SELECT count(*) FROM locking WHERE city = 'x'" }],
        statementTimeoutMilliseconds: 2_000,
      });
      expect(kept).toEqual([]);
      // The view takes a session-level advisory lock: had a check read it, this session would still hold it.
      const locks = await client.query(
        "SELECT count(*)::int AS held FROM pg_catalog.pg_locks WHERE locktype = 'advisory' AND pid = pg_catalog.pg_backend_pid()",
      );
      expect(locks.rows).toEqual([{ held: 0 }]);
    } finally {
      await client.end();
    }
  });
});
