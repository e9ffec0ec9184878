import { loadSqlParser } from "@nlq/engine";
import { beforeAll, describe, expect, it } from "vitest";
import { perturbations } from "./perturb-sql";

beforeAll(() => loadSqlParser());
const apply = (name: string, sql: string) => perturbations.find((item) => item.name === name)!.apply(sql);

describe("perturbations", () => {
  it("changes a top-level LIMIT or adds one", () => {
    expect(apply("limit", "SELECT a FROM t ORDER BY a LIMIT 5")).toBe("SELECT a FROM t ORDER BY a LIMIT 6");
    expect(apply("limit", "SELECT a FROM (SELECT a FROM t LIMIT 3) s;")).toBe(
      "SELECT a FROM (SELECT a FROM t LIMIT 3) s LIMIT 1",
    );
  });

  it("drops the first WHERE clause up to the next clause of its query", () => {
    expect(apply("drop-where", "SELECT a FROM t WHERE b = 'x ORDER BY' GROUP BY a")).toBe(
      "SELECT a FROM t  GROUP BY a",
    );
    expect(apply("drop-where", "SELECT a FROM t WHERE b IN (SELECT c FROM u WHERE d)")).toBe("SELECT a FROM t  ");
    expect(apply("drop-where", "SELECT a FROM (SELECT a FROM t WHERE b) s ORDER BY a")).toBe(
      "SELECT a FROM (SELECT a FROM t  ) s ORDER BY a",
    );
    expect(apply("drop-where", "SELECT a FROM t")).toBeUndefined();
  });

  it("swaps the first aggregate", () => {
    expect(apply("swap-aggregate", "SELECT MAX(price) FROM t")).toBe("SELECT min(price) FROM t");
    expect(apply("swap-aggregate", "SELECT count(id) FROM t")).toBe("SELECT count(DISTINCT id) FROM t");
    expect(apply("swap-aggregate", "SELECT count(*), avg(x) FROM t")).toBe("SELECT count(*), sum(x) FROM t");
    expect(apply("swap-aggregate", "SELECT a FROM t")).toBeUndefined();
  });
});
