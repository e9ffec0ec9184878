import { describe, expect, it } from "vitest";
import { translateMysqlGold } from "./translate-mysql-gold";

// Gold queries as Spider's train_queries.csv writes them (MySQL dialect), translated for the PostgreSQL warehouse.
describe("translateMysqlGold", () => {
  it("unquotes backticks into lower-cased PostgreSQL names, aliases and qualifiers included", () => {
    expect(translateMysqlGold("SELECT COUNT(*) FROM `Apartment_Bookings`")).toEqual({
      ok: true,
      sql: 'SELECT COUNT(*) FROM "apartment_bookings"',
    });
    expect(
      translateMysqlGold(
        "SELECT `t1`.`DName` FROM `Department` AS `t1` JOIN `Minor_in` AS `t2` ON `t1`.`DNO` = `t2`.`DNO` GROUP BY `t1`.`DName` ORDER BY COUNT(*) DESC LIMIT 1",
      ),
    ).toEqual({
      ok: true,
      sql: 'SELECT "t1"."dname" FROM "department" AS "t1" INNER JOIN "minor_in" AS "t2" ON "t1"."dno" = "t2"."dno" GROUP BY "t1"."dname" ORDER BY COUNT(*) DESC LIMIT 1',
    });
  });

  it("turns MySQL's double-quoted strings into literals and keeps the case of string values", () => {
    expect(translateMysqlGold('SELECT Name FROM singer WHERE Country = "France" AND name LIKE "%Jo%"')).toEqual({
      ok: true,
      sql: `SELECT "name" FROM "singer" WHERE "country" = 'France' AND "name" LIKE '%Jo%'`,
    });
  });

  it("spells out the cross join of a JOIN without ON, which MySQL accepts and PostgreSQL does not", () => {
    const translated = translateMysqlGold(
      "SELECT `t3`.`Fname` FROM `Enrolled_in` AS `t1` JOIN `Gradeconversion` AS `t2` JOIN `Student` AS `t3` ON `t1`.`Grade` = `t2`.`lettergrade` AND `t1`.`StuID` = `t3`.`StuID`",
    );
    expect(translated).toEqual({
      ok: true,
      sql: 'SELECT "t3"."fname" FROM "enrolled_in" AS "t1" CROSS JOIN "gradeconversion" AS "t2" INNER JOIN "student" AS "t3" ON "t1"."grade" = "t2"."lettergrade" AND "t1"."stuid" = "t3"."stuid"',
    });
  });

  it("keeps set operations and drops a trailing semicolon", () => {
    expect(translateMysqlGold("SELECT a FROM x INTERSECT SELECT a FROM y;")).toEqual({
      ok: true,
      sql: 'SELECT "a" FROM "x" INTERSECT SELECT "a" FROM "y"',
    });
  });

  it("says why a query cannot be translated instead of passing it on", () => {
    const translated = translateMysqlGold("SELECT FROM WHERE");
    expect(translated.ok).toBe(false);
    if (!translated.ok) expect(translated.error).toMatch(/^MySQL→PostgreSQL translation failed: /);
    expect(translateMysqlGold("SELECT 1; SELECT 2")).toEqual({
      ok: false,
      error: "MySQL→PostgreSQL translation failed: 2 statements, expected one",
    });
  });
});
