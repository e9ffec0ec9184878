import { beforeAll, describe, expect, it } from "vitest";
import { referencedColumns } from "./referenced-columns";
import { loadSqlParser } from "./validate-sql";

beforeAll(() => loadSqlParser());

describe("referencedColumns", () => {
  it("finds tables and columns in joins, subqueries, CTEs and USING, folded as PostgreSQL folds them", () => {
    const found = referencedColumns(
      `WITH big AS (SELECT customer_id FROM shop.Orders WHERE total > 100)
       SELECT c."Name", count(*) FROM customers AS c JOIN big USING (customer_id)
       WHERE c.region IN (SELECT region FROM regions WHERE active) GROUP BY c."Name" ORDER BY 2 DESC`,
    );
    const byName = (left: { name: string }, right: { name: string }) => left.name.localeCompare(right.name);
    expect([...(found?.tables ?? [])].sort(byName)).toEqual([
      { name: "big" },
      { name: "customers" },
      { schema: "shop", name: "orders" },
      { name: "regions" },
    ]);
    expect([...(found?.columns ?? [])].sort()).toEqual(["Name", "active", "customer_id", "region", "total"]);
    expect(found?.star).toBe(false);
  });

  it("notices * and t.*", () => {
    expect(referencedColumns("SELECT * FROM items")?.star).toBe(true);
    expect(referencedColumns("SELECT i.* FROM items i")?.star).toBe(true);
    expect(referencedColumns("SELECT count(*) FROM items")?.star).toBe(false);
  });

  it("returns undefined for text the parser rejects", () => {
    expect(referencedColumns("SELEC name FROM items")).toBeUndefined();
  });
});
