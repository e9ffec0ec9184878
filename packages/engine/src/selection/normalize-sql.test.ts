import { beforeAll, describe, expect, it } from "vitest";
import { loadSqlParser } from "../sql/validate-sql";
import { normalizedSqlKey } from "./normalize-sql";

beforeAll(() => loadSqlParser());

describe("normalizedSqlKey", () => {
  it("equals for texts PostgreSQL parses to the same statement", () => {
    const key = normalizedSqlKey("SELECT name AS n FROM items WHERE price > 10 ORDER BY name");
    expect(normalizedSqlKey("select name n\n  from ITEMS -- cheap ones\n where price>10 order by NAME;;")).toBe(key);
    expect(normalizedSqlKey("  SELECT  name AS n FROM items WHERE price > 10 ORDER BY name ;")).toBe(key);
  });

  it("differs when a constant, a quoted identifier or the statement differs", () => {
    const key = normalizedSqlKey("SELECT name FROM items WHERE price > 10");
    expect(normalizedSqlKey("SELECT name FROM items WHERE price > 20")).not.toBe(key);
    expect(normalizedSqlKey("SELECT name FROM items WHERE price > '10'")).not.toBe(key);
    expect(normalizedSqlKey('SELECT "Name" FROM items WHERE price > 10')).not.toBe(key);
    expect(normalizedSqlKey("SELECT name FROM items WHERE price >= 10")).not.toBe(key);
  });

  it("keys text the parser rejects on its trimmed text", () => {
    expect(normalizedSqlKey(" SELEC name FROM items; ")).toBe("SELEC name FROM items");
    expect(normalizedSqlKey("SELEC name FROM items")).not.toBe(normalizedSqlKey("SELEC name FROM item"));
  });
});
