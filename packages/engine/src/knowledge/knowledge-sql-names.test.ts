import { beforeAll, describe, expect, it } from "vitest";
import { loadSqlParser } from "../sql/validate-sql";
import { knowledgeSqlNames } from "./knowledge-sql-names";

describe("knowledgeSqlNames", () => {
  beforeAll(() => loadSqlParser());

  it("reads a metric's expression, a rule's condition and a whole query", () => {
    expect(knowledgeSqlNames("sum(amount_cents) / 100.0")).toEqual({ tables: [], columns: [{ name: "amount_cents" }] });
    expect(knowledgeSqlNames("is_test = false AND o.Status <> 'void'")).toEqual({
      tables: [],
      columns: [{ name: "is_test" }, { name: "status" }],
    });
    expect(knowledgeSqlNames("SELECT count(*) FROM hr.salaries s JOIN staff USING (id)")).toEqual({
      tables: [{ schema: "hr", name: "salaries" }, { name: "staff" }],
      columns: [],
    });
  });

  it("names the table of a schema-qualified column, and leaves the query's own CTEs out", () => {
    expect(knowledgeSqlNames(`sum(hr.salaries.amount) + max("HR"."Bonus".value)`)?.columns).toEqual([
      { table: { schema: "hr", name: "salaries" }, name: "amount" },
      { table: { schema: "HR", name: "Bonus" }, name: "value" },
    ]);
    expect(knowledgeSqlNames("WITH paid AS (SELECT id FROM orders) SELECT count(*) FROM paid")?.tables).toEqual([
      { name: "orders" },
    ]);
  });

  it("leaves out the names the SQL gives its own results", () => {
    expect(
      knowledgeSqlNames(
        "SELECT c.country, count(*) AS n FROM customers c JOIN (SELECT 1) AS one (k) ON k = c.id GROUP BY 1 ORDER BY n",
      )?.columns,
    ).toEqual([{ name: "country" }, { name: "id" }]);
    expect(knowledgeSqlNames("WITH t (total) AS (SELECT sum(x) FROM s) SELECT total FROM t")?.columns).toEqual([
      { name: "x" },
    ]);
  });

  it("is undefined for SQL the parser rejects", () => {
    expect(knowledgeSqlNames("sum(amount")).toBeUndefined();
    expect(knowledgeSqlNames("{{ ref('orders') }}.amount")).toBeUndefined();
  });
});
