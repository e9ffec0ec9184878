import { beforeAll, describe, expect, it } from "vitest";
import { loadSqlParser } from "../sql/validate-sql";
import { type ComparedReading, describeDifference, resultDifference } from "./describe-difference";
import { queryShape } from "./query-shape";

beforeAll(async () => {
  await loadSqlParser();
});

function reading(sql: string, rows: string[][], overrides: Partial<ComparedReading> = {}): ComparedReading {
  return { sql, columns: ["value"], rows, rowCount: rows.length, truncated: false, ...overrides };
}

describe("queryShape", () => {
  it("reads tables, select list, filters, grouping, ordering, limit and DISTINCT from the parse tree", () => {
    expect(
      queryShape(
        `WITH big AS (SELECT * FROM stadium WHERE capacity > 10000)
         SELECT DISTINCT avg(s.capacity), count(*), s.name FROM big b JOIN public.concert c ON c.sid = b.id
         JOIN stadium s ON s.id = b.id
         WHERE s.year = 2014 AND s.name ILIKE 'a%' GROUP BY s.name HAVING count(*) > 1 ORDER BY 1 DESC LIMIT 5`,
      ),
    ).toEqual({
      tables: ["public.concert", "stadium"],
      outputs: ["avg(s.capacity)", "count(*)", "s.name"],
      filters: ["s.year = 2014", "s.name ILIKE 'a%'"],
      having: ["count(*) > 1"],
      grouping: ["s.name"],
      ordering: ["1 DESC"],
      limit: "5",
      distinct: true,
    });
  });

  it("is undefined for text that is not one SELECT", () => {
    expect(queryShape("SELECT 1; SELECT 2")).toBeUndefined();
    expect(queryShape("DELETE FROM t")).toBeUndefined();
    expect(queryShape("SELEC nonsense")).toBeUndefined();
  });

  it("strips control and bidirectional characters from literals and shortens long ones", () => {
    const shape = queryShape(
      `SELECT 1 FROM t WHERE name = E'evil\\u202Etext\\nmore and a very long tail of text here'`,
    );
    expect(shape?.filters[0]).toBe("name = 'evil text more and a very long…'");
  });
});

describe("describeDifference", () => {
  it("says which column the other reading returns and how its value differs", () => {
    const line = describeDifference(
      reading("SELECT avg(capacity) FROM stadium", [["10621.67"]]),
      reading("SELECT avg(average) FROM stadium", [["1218.3"]]),
    );
    expect(line).toBe("returns avg(capacity) instead of avg(average); value is 10621.67 instead of 1218.3");
  });

  it("names an added filter and a different table, then the row counts", () => {
    expect(
      describeDifference(
        reading("SELECT name FROM singer WHERE country = 'France'", [["a"]]),
        reading("SELECT name FROM singer", [["a"], ["b"], ["c"]]),
      ),
    ).toBe("adds the filter country = 'France'; 1 row instead of 3 rows");
    expect(
      describeDifference(
        reading("SELECT count(*) FROM country", [["157"]]),
        reading("SELECT count(*) FROM countries", [["12"]]),
      ),
    ).toBe("reads country instead of countries; value is 157 instead of 12");
  });

  it("describes grouping, ordering and limit changes", () => {
    expect(
      describeDifference(
        reading("SELECT y, count(*) FROM t GROUP BY y ORDER BY y LIMIT 3", [["1", "2"]]),
        reading("SELECT y, count(*) FROM t GROUP BY y, z", [["1", "2"]]),
      ),
    ).toBe("groups by y instead of y, z; orders by y; LIMIT 3");
  });

  it("falls back to the results when the SQL does not parse, and marks a cut count with +", () => {
    expect(
      describeDifference(
        reading("not sql", [["1"]], { rowCount: 1000, truncated: true }),
        reading("SELECT 1", [["1"]]),
      ),
    ).toBe("1000+ rows instead of 1 row");
  });

  it("notices the same rows in another order, and says nothing for equal rows", () => {
    expect(resultDifference(reading("a", [["1"], ["2"]]), reading("b", [["2"], ["1"]]))).toBe(
      "the same rows in another order",
    );
    expect(resultDifference(reading("a", [["1"], ["3"]]), reading("b", [["1"], ["2"]]))).toBe(
      "value is 3 instead of 2 in row 2",
    );
    expect(resultDifference(reading("a", [["1"], ["2"]]), reading("b", [["1"], ["2"]]))).toBeUndefined();
  });
});
