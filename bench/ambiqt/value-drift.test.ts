import { seededRandom } from "@nlq/engine";
import { describe, expect, it } from "vitest";
import { chooseIndexes, driftKindOf, driftValue, isCategorical } from "./value-drift";

const ages = ["52", "41", "29", "33", "60", "47", "38", "25", "31", "44"];

describe("driftKindOf", () => {
  it("reads PostgreSQL's format_type", () => {
    expect(driftKindOf("integer")).toBe("integer");
    expect(driftKindOf("numeric(10,2)")).toBe("decimal");
    expect(driftKindOf("double precision")).toBe("decimal");
    expect(driftKindOf("timestamp without time zone")).toBe("timestamp");
    expect(driftKindOf("date")).toBe("date");
    expect(driftKindOf("character varying(20)")).toBe("text");
  });
});

describe("driftValue", () => {
  it("moves a number a few per cent in its own precision, never to the same value", () => {
    const random = seededRandom(3);
    for (const age of ages) {
      const drifted = driftValue(age, { kind: "integer", values: ages, random })!;
      expect(drifted).toMatch(/^\d+$/);
      expect(drifted).not.toBe(age);
      expect(Math.abs(Number(drifted) - Number(age))).toBeLessThanOrEqual(Math.ceil(Number(age) * 0.15));
    }
    const prices = ["12.50", "4.00", "30.25", "8.75", "19.99", "5.10", "7.45"];
    const drifted = driftValue("12.50", { kind: "decimal", values: prices, random })!;
    expect(drifted).toMatch(/^\d+\.\d{2}$/);
    expect(drifted).not.toBe("12.50");
  });

  it("keeps a number written as text a number of the same precision", () => {
    const heights = ["1.82", "1.75", "1.90", "1.68", "1.77", "1.85", "1.71"];
    expect(driftValue("1.82", { kind: "text", values: heights, random: seededRandom(1) })).toMatch(/^\d\.\d{2}$/);
  });

  it("moves a date (or a date written as text) by days, keeping its time of day", () => {
    const days = ["2018-03-17 07:13:53", "2017-01-02 10:00:00", "2016-05-05 11:11:11", "2015-09-09 09:09:09"];
    const moved = driftValue(days[0]!, {
      kind: "text",
      values: [...days, ...days.map((day) => `${day}x`)],
      random: seededRandom(2),
    })!;
    expect(moved).toMatch(/^\d{4}-\d{2}-\d{2} 07:13:53$/);
    expect(moved).not.toBe(days[0]);
  });

  it("takes another value the column holds for categories and key columns, none when it holds one", () => {
    const countries = ["France", "France", "Netherlands", "United States", "France", "Netherlands"].flatMap(
      (country) => [country, country],
    );
    expect(isCategorical(countries)).toBe(true);
    const other = driftValue("France", { kind: "text", values: countries, random: seededRandom(5) });
    expect(["Netherlands", "United States"]).toContain(other);
    expect(
      driftValue("7", { kind: "integer", values: ages, existingValuesOnly: true, random: seededRandom(5) }),
    ).toSatisfy((value: string) => ages.includes(value));
    expect(driftValue("x", { kind: "text", values: ["x", "x", "x"], random: seededRandom(5) })).toBeUndefined();
  });

  it("gives no drifted value a marker: the text of a drifted name is another name of the column", () => {
    const names = ["Joe Sharp", "Timbaland", "Justin Brown", "Rose White", "John Nizinik", "Tribal King", "Ada Lee"];
    const drifted = driftValue("Joe Sharp", { kind: "text", values: names, random: seededRandom(9) })!;
    expect(names).toContain(drifted);
  });
});

describe("chooseIndexes", () => {
  it("chooses distinct indexes, seeded, sorted", () => {
    const chosen = chooseIndexes(10, 4, seededRandom(1));
    expect(new Set(chosen).size).toBe(4);
    expect(chosen).toEqual([...chosen].sort((left, right) => left - right));
    expect(chooseIndexes(10, 4, seededRandom(1))).toEqual(chosen);
    expect(chooseIndexes(3, 10, seededRandom(1))).toEqual([0, 1, 2]);
  });
});
