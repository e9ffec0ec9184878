import { createPgExecutor } from "@nlq/adapters";
import { createTestDatabase, type TestDatabase } from "@nlq/adapters/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { QueryExecutor } from "../database/query-executor";
import { queryWithRowLimit, runReadOnly } from "../database/read-only-session";
import { SqlValidationError } from "../errors/database-errors";
import type { FunctionPolicy } from "./function-policy";
import { loadFunctionPolicy } from "./load-function-policy";
import { validateSql } from "./validate-sql";

let database: TestDatabase;
let client: pg.Client;
let session: QueryExecutor;
let policy: FunctionPolicy;
const scope = { statementTimeoutMilliseconds: 5_000 };

beforeAll(async () => {
  database = await createTestDatabase(
    "nlq_function_policy",
    `CREATE EXTENSION dblink;
     CREATE EXTENSION pg_trgm;
     CREATE TABLE sales (id integer PRIMARY KEY, region text, amount numeric, sold_at timestamptz);
     INSERT INTO sales VALUES (1, 'north', 10, '2024-01-05'), (2, 'south', 20, '2024-02-07'), (3, 'north', 5, '2024-02-09');
     CREATE FUNCTION bump() RETURNS integer LANGUAGE sql VOLATILE AS 'SELECT 1';
     CREATE FUNCTION bump_eq(integer, integer) RETURNS boolean LANGUAGE sql VOLATILE AS 'SELECT $1 = $2';
     CREATE OPERATOR === (LEFTARG = integer, RIGHTARG = integer, FUNCTION = bump_eq);
     CREATE SCHEMA reports;
     CREATE FUNCTION reports.bump() RETURNS integer LANGUAGE sql VOLATILE AS 'SELECT 2';
     CREATE FUNCTION lock_it(integer) RETURNS boolean LANGUAGE sql VOLATILE
       AS 'SELECT pg_advisory_lock(7003) IS NOT NULL';
     CREATE DOMAIN locked_int AS integer CHECK (lock_it(VALUE));
     CREATE DOMAIN locked_again AS locked_int;
     CREATE TYPE mood AS (score integer);
     CREATE FUNCTION to_mood(integer) RETURNS mood LANGUAGE sql VOLATILE AS 'SELECT ROW($1)::mood';
     CREATE CAST (integer AS mood) WITH FUNCTION to_mood(integer);
     CREATE TYPE holder AS (inner_value locked_int);
     CREATE TYPE locked_range AS RANGE (SUBTYPE = locked_int);
     CREATE TYPE feeling AS ENUM ('calm', 'tense');
     CREATE FUNCTION feeling_json(feeling) RETURNS json LANGUAGE sql VOLATILE
       AS 'SELECT to_json(pg_advisory_lock(7005)::text)';
     CREATE CAST (feeling AS json) WITH FUNCTION feeling_json(feeling);
     CREATE SCHEMA evil;
     CREATE FUNCTION evil.locking_eq(integer, bigint) RETURNS boolean LANGUAGE sql VOLATILE
       AS 'SELECT pg_advisory_lock(7004) IS NOT NULL';
     CREATE OPERATOR evil.= (LEFTARG = integer, RIGHTARG = bigint, FUNCTION = evil.locking_eq);`,
  );
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
  session = createPgExecutor(client);
  await session.query({ sql: "CREATE TEMPORARY SEQUENCE client_counter" });
  policy = await runReadOnly({ session, ...scope }, (query) => loadFunctionPolicy(query));
}, 60_000);
afterAll(async () => {
  await client?.end();
  await database?.drop();
});

describe("the function policy loaded from pg_proc (as a superuser, with dblink installed)", () => {
  const refused: Array<[string, RegExp]> = [
    ["SELECT query_to_xml('delete from sales', true, true, '')", /query_to_xml\(\) executes SQL text/],
    ["SELECT * FROM ts_stat('select to_tsvector(region) from sales')", /ts_stat\(\) executes SQL text/],
    ["SELECT dblink_exec('dbname=postgres', 'delete from sales')", /dblink_exec\(\) opens database connections/],
    ["SELECT dblink_connect_u('c', 'dbname=postgres')", /dblink_connect_u\(\) opens database connections/],
    ["SELECT dblink_send_query('c', 'delete from sales')", /dblink_send_query\(\) opens database connections/],
    ["SELECT pg_terminate_backend(pid) FROM pg_stat_activity", /pg_terminate_backend\(\) signals server processes/],
    ["SELECT pg_read_file('/etc/passwd')", /pg_read_file\(\) touches server files/],
    ["SELECT lo_export(1, '/tmp/nlq-out')", /lo_export\(\) touches server files or large objects/],
    ["SELECT pg_create_physical_replication_slot('nlq_slot')", /replication, backup or statistics/],
    ["SELECT pg_backup_start('nlq')", /pg_backup_start\(\) changes replication, backup/],
    ["SELECT pg_stat_reset()", /pg_stat_reset\(\) changes replication, backup or statistics/],
    ["SELECT pg_advisory_lock(42)", /pg_advisory_lock\(\) takes or releases advisory locks/],
    ["SELECT pg_advisory_xact_lock(42)", /pg_advisory_xact_lock\(\) takes or releases advisory locks/],
    ["SELECT nextval('client_counter')", /nextval\(\) changes sequence/],
    ["SELECT bump()", /public.bump\(\) is volatile/],
    ["SELECT id FROM sales WHERE id === 1", /operator === calls public.bump_eq\(\), which is volatile/],
    ["SELECT reports.bump()", /reports.bump\(\) is volatile/],
    // Issue 17: what PostgreSQL resolves, not what is written.
    ["SELECT (7020::bigint).pg_advisory_lock", /column notation .pg_advisory_lock can call .* advisory locks/],
    ["SELECT s.id.pg_advisory_lock FROM sales s", /column notation .pg_advisory_lock/],
    ["SELECT ('select to_tsvector(region) from sales'::text).ts_stat", /\.ts_stat can call pg_catalog.ts_stat/],
    ["SELECT (pg_backend_pid()).pg_terminate_backend", /\.pg_terminate_backend can call .* signals server/],
    ["SELECT ('postmaster.opts'::text).pg_read_file", /\.pg_read_file can call .* touches server files/],
    ["SELECT ('slot'::name).pg_create_physical_replication_slot", /replication, backup or statistics/],
    ["SELECT ('dbname=postgres'::text).dblink_connect_u", /\.dblink_connect_u can call public.dblink_connect_u/],
    ["SELECT 1::locked_int", /a cast to type public.locked_int runs public.lock_it\(\), which is volatile/],
    ["SELECT 1::locked_again", /a cast to type public.locked_again runs public.lock_it\(\)/],
    ["SELECT locked_int(1)", /a cast to type public.locked_int runs public.lock_it/],
    ["SELECT (1).locked_int", /a cast to type public.locked_int/],
    ["SELECT 1::mood", /a cast to type public.mood runs public.to_mood\(\), which is volatile/],
    ["SELECT '(1)'::holder", /a cast to type public.holder runs public.lock_it\(\)/],
    ["SELECT ROW(1)::holder", /a cast to type public.holder runs public.lock_it\(\)/],
    ["SELECT * FROM json_populate_record(NULL::holder, '{\"inner_value\": 1}')", /cast to type public.holder/],
    ["SELECT '[1,2)'::locked_range", /a cast to type public.locked_range runs public.lock_it\(\)/],
    ["SELECT domain_in('1', 'locked_int'::regtype, -1) IS NULL", /domain_in\(\) runs the input function of a type/],
    [
      "SELECT to_json('calm'::feeling)",
      /a cast to type public.feeling runs public.feeling_json\(\), which is volatile \(cast from public.feeling to json; owner postgres\)/,
    ],
    [
      "SELECT json_agg(f) FROM (VALUES ('calm'::feeling)) AS v(f)",
      /cast to type public.feeling runs public.feeling_json/,
    ],
    ["SELECT record_in('(1)', 'holder'::regtype, -1) IS NULL", /record_in\(\) runs the input function of a type/],
    ["SELECT array_in('{1}', 'locked_int'::regtype, -1) IS NULL", /array_in\(\) runs the input function of a type/],
    ["SELECT pg_temp.f()", /temporary schema pg_temp/],
  ];
  for (const [sql, reason] of refused) {
    it(`refuses ${sql}`, async () => {
      const attempt = validateSql(sql, policy);
      await expect(attempt).rejects.toBeInstanceOf(SqlValidationError);
      await expect(attempt).rejects.toMatchObject({ code: "25006", message: expect.stringMatching(reason) });
    });
  }

  it("keeps ordinary analytical queries working, validated and executed", async () => {
    const ordinary = [
      "SELECT region, count(*), sum(amount), avg(amount) FROM sales GROUP BY region ORDER BY region",
      "SELECT date_trunc('month', sold_at) AS month, sum(amount) FROM sales GROUP BY 1 ORDER BY 1",
      "SELECT count(*) FROM sales WHERE sold_at < now() AND lower(region) = 'north'",
      "SELECT to_char(sold_at, 'YYYY-MM') AS month, string_agg(region, ', ' ORDER BY id) FROM sales GROUP BY 1",
      "SELECT id, sum(amount) OVER (PARTITION BY region ORDER BY id), row_number() OVER () FROM sales",
      "SELECT region, similarity(region, 'nort') FROM sales WHERE region % 'nort' ORDER BY id",
      "SELECT id FROM sales WHERE amount BETWEEN 5 AND 15 AND region LIKE 'n%' AND id IN (1, 3) ORDER BY id",
      "SELECT random() < 2 AS ok, gen_random_uuid() IS NOT NULL AS uuid",
      "SELECT s.region, s.amount::integer, CAST(s.id AS bigint), date '2024-01-01' AS d FROM sales s",
      "SELECT CASE region WHEN 'north' THEN 'n' ELSE 'other' END, (s).amount, s.region::text FROM sales s",
      "SELECT interval '1 day' + sold_at, '{1,2}'::integer[], int8(id), text(region) FROM sales",
    ];
    for (const sql of ordinary) {
      const validated = await validateSql(sql, policy);
      const capped = await runReadOnly({ session, ...scope }, (query) => queryWithRowLimit(query, validated.sql, 100));
      expect(capped.result.rows.length, sql).toBeGreaterThan(0);
    }
  });

  it("resolves column notation, domain checks and casts as PostgreSQL does (each would run without the policy)", async () => {
    const locks = async (sql: string) =>
      runReadOnly({ session, ...scope }, async (query) => {
        await query(sql);
        const held = await query(
          "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND objid IN (7003, 7020)",
        );
        return held.rows[0]?.[0];
      });
    // PostgreSQL really calls these functions (the transaction-level view of the scope shows the lock).
    expect(await locks("SELECT (7020::bigint).pg_advisory_xact_lock")).toBe("1");
    // The domain's CHECK takes a session lock: the scope's residue check releases it and refuses the result.
    await expect(locks("SELECT 1::locked_int")).rejects.toThrow(/left session state behind \(advisory lock 7003\)/);
    expect(
      (
        await client.query(
          "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()",
        )
      ).rows[0].n,
    ).toBe(0);
    await expect(validateSql("SELECT (7020::bigint).pg_advisory_xact_lock", policy)).rejects.toThrow(/advisory/);
  });

  it("refuses the = that CASE x WHEN resolves to when it is refused", async () => {
    const withEvil = await runReadOnly({ session, ...scope }, async (query) => {
      await query("SET LOCAL search_path = evil, public");
      return loadFunctionPolicy(query);
    });
    await expect(validateSql("SELECT CASE id WHEN 1::bigint THEN 'one' END FROM sales", withEvil)).rejects.toThrow(
      /operator = calls evil.locking_eq\(\), which is volatile/,
    );
    await expect(validateSql("SELECT CASE id WHEN 1::bigint THEN 'one' END FROM sales", policy)).resolves.toBeDefined();
  });

  it("allows a user-defined stable function only when NLQ_ALLOWED_FUNCTIONS names it", async () => {
    await client.query(
      "CREATE FUNCTION reports.fiscal_year(timestamptz) RETURNS int LANGUAGE sql STABLE AS 'SELECT 1'",
    );
    try {
      const strict = await runReadOnly({ session, ...scope }, (query) => loadFunctionPolicy(query));
      await expect(validateSql("SELECT reports.fiscal_year(now())", strict)).rejects.toThrow(
        /not named in NLQ_ALLOWED/,
      );
      const allowing = await runReadOnly({ session, ...scope }, (query) =>
        loadFunctionPolicy(query, ["reports.fiscal_year"]),
      );
      await expect(validateSql("SELECT reports.fiscal_year(now())", allowing)).resolves.toBeDefined();
    } finally {
      await client.query("DROP FUNCTION reports.fiscal_year(timestamptz)");
    }
  });
});
