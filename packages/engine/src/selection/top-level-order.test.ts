import { beforeAll, describe, expect, it } from "vitest";
import { loadSqlParser } from "../sql/validate-sql";
import { ordersAtTopLevel } from "./top-level-order";

beforeAll(() => loadSqlParser());

describe("ordersAtTopLevel", () => {
  it("sees an ORDER BY of the outermost query", () => {
    expect(ordersAtTopLevel("SELECT a FROM t ORDER BY a DESC LIMIT 3")).toBe(true);
    expect(ordersAtTopLevel("SELECT a FROM t UNION SELECT b FROM u ORDER BY 1")).toBe(true);
    expect(ordersAtTopLevel("WITH c AS (SELECT 1 AS a) SELECT a FROM c ORDER BY a")).toBe(true);
  });

  it("ignores ORDER BY in subqueries, CTEs, windows and string literals", () => {
    expect(ordersAtTopLevel("SELECT a FROM (SELECT a FROM t ORDER BY a) AS s")).toBe(false);
    expect(ordersAtTopLevel("WITH c AS (SELECT a FROM t ORDER BY a) SELECT a FROM c")).toBe(false);
    expect(ordersAtTopLevel("SELECT rank() OVER (ORDER BY a) FROM t")).toBe(false);
    expect(ordersAtTopLevel("SELECT 'ORDER BY a' FROM t")).toBe(false);
  });

  it("treats SQL the parser rejects as unordered", () => {
    expect(ordersAtTopLevel("SELEC a ORDER BY")).toBe(false);
  });
});
