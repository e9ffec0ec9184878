import { describe, expect, it } from "vitest";
import { SqlValidationError } from "../errors/database-errors";
import { createFunctionPolicy, type RoutineFacts } from "./function-policy";
import { validateSql } from "./validate-sql";

const system = (name: string, volatility: RoutineFacts["volatility"]): RoutineFacts => ({
  schema: "pg_catalog",
  name,
  volatility,
  extension: null,
  onSearchPath: true,
});
const inPublic = (name: string, volatility: RoutineFacts["volatility"], extension: string | null = null) => ({
  schema: "public",
  name,
  volatility,
  extension,
  onSearchPath: true,
});

/** Facts as pg_proc would give them, pure: no database. */
const policy = createFunctionPolicy({
  functions: [
    system("count", "i"),
    system("lower", "i"),
    system("now", "s"),
    system("random", "v"),
    system("pg_advisory_lock", "v"),
    system("query_to_xml", "s"),
    system("txid_current", "v"),
    system("ts_stat", "v"),
    system("pg_input_is_valid", "s"),
    system("pg_terminate_backend", "v"),
    { ...system("set_config", "v"), acceptsOneArgument: false },
    system("name", "i"),
    inPublic("similarity", "i", "pg_trgm"),
    inPublic("dblink_exec", "v", "dblink"),
    inPublic("slugify", "i"),
    inPublic("touch_counter", "v"),
    { ...inPublic("fiscal_year", "s"), schema: "reports", onSearchPath: false },
  ],
  operators: [
    { schema: "pg_catalog", name: "=", onSearchPath: true, implementation: system("int4eq", "i") },
    { schema: "public", name: "%%%", onSearchPath: true, implementation: inPublic("touch_counter", "v") },
  ],
  types: [
    { schema: "public", name: "locked_int", onSearchPath: true, routines: [inPublic("take_lock", "v")] },
    { schema: "public", name: "mood", onSearchPath: true, routines: [inPublic("to_mood", "s")] },
  ],
  allowedFunctions: ["reports.fiscal_year"],
});

describe("validateSql", () => {
  it("accepts read-only queries and strips trailing semicolons", async () => {
    expect(await validateSql("SELECT count(*) FROM customers;  ", policy)).toEqual({
      sql: "SELECT count(*) FROM customers",
    });
    expect((await validateSql("WITH x AS (SELECT 1 AS a) SELECT a FROM x;;", policy)).sql).toBe(
      "WITH x AS (SELECT 1 AS a) SELECT a FROM x",
    );
    expect((await validateSql("VALUES (1), (2)", policy)).sql).toBe("VALUES (1), (2)");
    expect((await validateSql("TABLE customers", policy)).sql).toBe("TABLE customers");
    expect((await validateSql("SELECT 'a;b' UNION ALL SELECT 'c'", policy)).sql).toBe(
      "SELECT 'a;b' UNION ALL SELECT 'c'",
    );
  });

  it("accepts allowed functions: stable/immutable system ones, harmless volatile ones, safe extensions, the setting", async () => {
    for (const sql of [
      "SELECT lower(name), now(), random() FROM customers WHERE id = 1",
      "SELECT similarity(name, 'ada') FROM customers",
      "SELECT reports.fiscal_year(now())",
      "SELECT no_such_function(1)",
    ]) {
      await expect(validateSql(sql, policy)).resolves.toEqual({ sql });
    }
  });

  const refused: Array<[string, RegExp]> = [
    ["DELETE FROM customers", /not DeleteStmt/],
    ["INSERT INTO customers VALUES (1)", /not InsertStmt/],
    ["UPDATE customers SET name = 'x'", /not UpdateStmt/],
    ["DROP TABLE customers", /not DropStmt/],
    ["EXPLAIN ANALYZE SELECT 1", /not ExplainStmt/],
    ["SET statement_timeout = 0", /not VariableSetStmt/],
    ["WITH gone AS (DELETE FROM customers RETURNING *) SELECT * FROM gone", /data-modifying DELETE/],
    ["SELECT * INTO copy FROM customers", /SELECT … INTO/],
    ["SELECT * FROM customers FOR UPDATE", /locking clause/],
    ["SELECT pg_advisory_lock(1)", /pg_catalog.pg_advisory_lock\(\) takes or releases advisory locks/],
    ["SELECT set_config('role', 'postgres', false)", /pg_catalog.set_config\(\) sets configuration/],
    ["SELECT query_to_xml('delete from t', true, true, '')", /query_to_xml\(\) executes SQL text/],
    ["SELECT pg_catalog.txid_current()", /pg_catalog.txid_current\(\) is volatile/],
    ["SELECT x FROM (SELECT dblink_exec('x') AS x) s", /public.dblink_exec\(\) opens database connections/],
    ["SELECT slugify(name) FROM customers", /public.slugify\(\) is a user-defined function not named/],
    ["SELECT 1 WHERE 2 %%% 3", /operator %%% calls public.touch_counter\(\), which is volatile/],
    ["SELECT 1 WHERE 2 OPERATOR(public.%%%) 3", /operator public.%%% calls public.touch_counter/],
    // Column and field notation: PostgreSQL resolves (x).f as f(x) and t.f as f(t).
    [
      "SELECT (7020::bigint).pg_advisory_lock",
      /column notation .pg_advisory_lock can call pg_catalog.pg_advisory_lock/,
    ],
    [
      "SELECT ('select 1'::text).ts_stat",
      /column notation .ts_stat can call pg_catalog.ts_stat\(\), which executes SQL/,
    ],
    ["SELECT c.pg_terminate_backend FROM customers c", /\.pg_terminate_backend can call .* signals server/],
    ["SELECT s.c.pg_advisory_lock FROM s.c", /column notation .pg_advisory_lock/],
    ["SELECT ((1, 2)::record).x.pg_advisory_lock", /column notation .pg_advisory_lock/],
    ["SELECT dblink_exec FROM (SELECT 1) t WHERE t.dblink_exec IS NULL", /\.dblink_exec can call public.dblink_exec/],
    // Casts to types whose input, cast or domain CHECK functions are refused.
    ["SELECT 1::locked_int", /a cast to type public.locked_int runs public.take_lock\(\), which is volatile/],
    ["SELECT CAST(1 AS public.locked_int)", /cast to type public.locked_int runs public.take_lock/],
    ["SELECT locked_int '1'", /cast to type public.locked_int/],
    ["SELECT '{1}'::locked_int[]", /cast to type public.locked_int/],
    ["SELECT locked_int(1)", /cast to type public.locked_int/],
    ["SELECT (1).locked_int", /column notation .locked_int: a cast to type public.locked_int/],
    ["SELECT 1::mood", /runs public.to_mood\(\), which is a user-defined function not named/],
    ["SELECT pg_input_is_valid('1', 'locked_int')", /runs the input function of a type named at run time/],
    // The session's temporary schema: its code was never checked.
    ["SELECT pg_temp.f()", /temporary schema pg_temp/],
    ["SELECT * FROM pg_temp.scratch", /temporary schema pg_temp/],
    ["SELECT 1::pg_temp_3.d", /temporary schema pg_temp_3/],
    ["SELECT 1 OPERATOR(pg_temp.+) 2", /temporary schema pg_temp/],
  ];
  for (const [sql, message] of refused) {
    it(`refuses ${sql}`, async () => {
      const attempt = validateSql(sql, policy);
      await expect(attempt).rejects.toBeInstanceOf(SqlValidationError);
      await expect(attempt).rejects.toThrow(message);
      await expect(attempt).rejects.toMatchObject({ code: "25006" });
    });
  }

  it("accepts column notation that can only be a column or a function that is allowed or takes no one argument", async () => {
    for (const sql of [
      "SELECT c.name, c.id, (c).name FROM customers c",
      "SELECT t.set_config, t.random FROM t",
      "SELECT (row_value).amount, (data).* FROM t",
      "SELECT 1::integer, '2024-01-01'::date, CAST(2 AS numeric), interval '1 day', int8(3)",
      "SELECT CASE WHEN id = 1 THEN 'a' END, CASE id WHEN 1 THEN 'b' END FROM t",
    ]) {
      await expect(validateSql(sql, policy)).resolves.toEqual({ sql });
    }
  });

  it("refuses the = operator CASE x WHEN implies when an = operator is refused", async () => {
    const withUnsafeEquals = createFunctionPolicy({
      functions: [],
      operators: [{ schema: "public", name: "=", onSearchPath: true, implementation: inPublic("locking_eq", "v") }],
    });
    await expect(validateSql("SELECT CASE x WHEN 1 THEN 2 END FROM t", withUnsafeEquals)).rejects.toThrow(
      /operator = calls public.locking_eq\(\), which is volatile/,
    );
    await expect(validateSql("SELECT CASE WHEN true THEN 2 END", withUnsafeEquals)).resolves.toBeDefined();
  });

  it("refuses several statements, empty text, NUL characters and syntax errors with 42601", async () => {
    await expect(validateSql("SELECT 1; SELECT 2", policy)).rejects.toThrow(/exactly one statement, found 2/);
    await expect(validateSql(" ; ", policy)).rejects.toThrow(/empty/);
    await expect(validateSql("SELECT 1\0; DELETE FROM t", policy)).rejects.toThrow(/NUL/);
    await expect(validateSql("SELEC 1", policy)).rejects.toMatchObject({ code: "42601", sql: "SELEC 1" });
  });
});
