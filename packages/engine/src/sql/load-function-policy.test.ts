import { createPgExecutor } from "@nlq/adapters";
import { createTestDatabase, type TestDatabase } from "@nlq/adapters/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { QueryExecutor } from "../database/query-executor";
import { queryWithRowLimit, runReadOnly } from "../database/read-only-session";
import { SqlValidationError } from "../errors";
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
     CREATE FUNCTION reports.bump() RETURNS integer LANGUAGE sql VOLATILE AS 'SELECT 2';`,
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
    ];
    for (const sql of ordinary) {
      const validated = await validateSql(sql, policy);
      const capped = await runReadOnly({ session, ...scope }, (query) => queryWithRowLimit(query, validated.sql, 100));
      expect(capped.result.rows.length, sql).toBeGreaterThan(0);
    }
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
