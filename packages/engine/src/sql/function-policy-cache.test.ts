import { randomBytes } from "node:crypto";
import { createPgExecutor } from "@nlq/adapters";
import { createTestDatabase, dropTestRole, type TestDatabase } from "@nlq/adapters/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { QueryExecutor } from "../database/query-executor";
import { runReadOnly } from "../database/read-only-session";
import { createFunctionPolicyCache } from "./function-policy-cache";
import { validateSql } from "./validate-sql";

const role = `nlq_policy_cache_${randomBytes(4).toString("hex")}`;
let database: TestDatabase;
let owner: pg.Client;
let asOwner: QueryExecutor;
let asRole: QueryExecutor;
let roleClient: pg.Client;
const scope = { statementTimeoutMilliseconds: 5_000 };

beforeAll(async () => {
  database = await createTestDatabase(
    "nlq_policy_cache",
    `CREATE FUNCTION tidy(text) RETURNS text LANGUAGE sql STABLE AS 'SELECT lower($1)';
     CREATE SCHEMA other;
     CREATE ROLE ${role} LOGIN;
     GRANT USAGE ON SCHEMA other TO ${role};`,
  );
  owner = new pg.Client({ connectionString: database.url });
  roleClient = new pg.Client({ connectionString: database.urlFor(role) });
  await owner.connect();
  await roleClient.connect();
  asOwner = createPgExecutor(owner);
  asRole = createPgExecutor(roleClient);
}, 60_000);
afterAll(async () => {
  await owner?.end();
  await roleClient?.end();
  await database?.drop();
  await dropTestRole(role);
});

describe("createFunctionPolicyCache", () => {
  it("reuses a policy while the catalogs, role and search path hold, and reads it again when any changes", async () => {
    const cache = createFunctionPolicyCache(8);
    const load = (session: QueryExecutor, allowed: readonly string[] = ["tidy"]) =>
      runReadOnly({ session, ...scope }, (query) => cache.load(query, allowed));
    const first = await load(asOwner);
    expect(await load(asOwner)).toBe(first);
    expect(cache.size).toBe(1);
    await expect(validateSql("SELECT tidy('A')", first)).resolves.toBeDefined();

    // Another role, another setting, another search path: each its own policy.
    expect(await load(asRole)).not.toBe(first);
    expect(await load(asOwner, [])).not.toBe(first);
    await owner.query("SET search_path = other, public");
    const otherPath = await load(asOwner);
    expect(otherPath).not.toBe(first);
    await owner.query("RESET search_path");
    expect(await load(asOwner)).toBe(first);
    expect(cache.size).toBe(4);

    // A function turned volatile is refused at once: the fingerprint changed with pg_proc.
    await owner.query("ALTER FUNCTION tidy(text) VOLATILE");
    const altered = await load(asOwner);
    expect(altered).not.toBe(first);
    await expect(validateSql("SELECT tidy('A')", altered)).rejects.toThrow(/public.tidy\(\) is volatile/);
    // A new domain whose CHECK is volatile too (pg_type, pg_constraint).
    await owner.query("CREATE DOMAIN checked AS text CHECK (tidy(VALUE) IS NOT NULL)");
    await expect(validateSql("SELECT 'a'::checked", await load(asOwner))).rejects.toThrow(
      /cast to type public.checked/,
    );
    // A table that gains a column of that domain: a cast to its row type now runs the CHECK (pg_class changed).
    await owner.query("CREATE TABLE notes (id integer)");
    await expect(validateSql("SELECT ROW(1)::notes", await load(asOwner))).resolves.toBeDefined();
    await owner.query("ALTER TABLE notes ADD COLUMN body checked");
    await expect(validateSql("SELECT ROW(1, 'a')::notes", await load(asOwner))).rejects.toThrow(
      /cast to type public.notes/,
    );
  });

  it("keeps at most maxEntries policies", async () => {
    const cache = createFunctionPolicyCache(2);
    for (const allowed of [["a"], ["b"], ["c"]]) {
      await runReadOnly({ session: asOwner, ...scope }, (query) => cache.load(query, allowed));
    }
    expect(cache.size).toBe(2);
    cache.clear();
    expect(cache.size).toBe(0);
  });
});
