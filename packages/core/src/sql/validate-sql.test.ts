import { describe, expect, it } from "vitest";
import { SqlValidationError } from "../errors";
import { validateSql } from "./validate-sql";

describe("validateSql", () => {
  it("accepts read-only queries and strips trailing semicolons", async () => {
    expect(await validateSql("SELECT count(*) FROM customers;  ")).toEqual({ sql: "SELECT count(*) FROM customers" });
    expect((await validateSql("WITH x AS (SELECT 1 AS a) SELECT a FROM x;;")).sql).toBe(
      "WITH x AS (SELECT 1 AS a) SELECT a FROM x",
    );
    expect((await validateSql("VALUES (1), (2)")).sql).toBe("VALUES (1), (2)");
    expect((await validateSql("TABLE customers")).sql).toBe("TABLE customers");
    expect((await validateSql("SELECT 'a;b' UNION ALL SELECT 'c'")).sql).toBe("SELECT 'a;b' UNION ALL SELECT 'c'");
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
    ["SELECT pg_advisory_lock(1)", /function pg_advisory_lock\(\)/],
    ["SELECT set_config('role', 'postgres', false)", /function set_config\(\)/],
  ];
  for (const [sql, message] of refused) {
    it(`refuses ${sql}`, async () => {
      const attempt = validateSql(sql);
      await expect(attempt).rejects.toBeInstanceOf(SqlValidationError);
      await expect(attempt).rejects.toThrow(message);
      await expect(attempt).rejects.toMatchObject({ code: "25006" });
    });
  }

  it("refuses several statements, empty text and syntax errors with 42601", async () => {
    await expect(validateSql("SELECT 1; SELECT 2")).rejects.toThrow(/exactly one statement, found 2/);
    await expect(validateSql(" ; ")).rejects.toThrow(/empty/);
    await expect(validateSql("SELEC 1")).rejects.toMatchObject({ code: "42601", sql: "SELEC 1" });
  });
});
