import { describe, expect, it } from "vitest";
import { SchemaTermCoverage } from "./schema-term-coverage";

describe("schema term coverage", () => {
  const coverage = new SchemaTermCoverage(
    [new Set(["student", "course", "grade", "name"]), new Set(["singer", "concert", "name"])],
    [new Set(["student", "name"]), new Set(["course", "grade"]), new Set(["singer", "concert", "name"])],
  );

  it("weighs each matching term by its rarity over databases and leaves out stop words and unknown words", () => {
    const result = coverage.coverage(["what", "grade", "student", "name", "unknownword"]);
    const rare = Math.log(1 + 2 / 1);
    const common = Math.log(1 + 2 / 2);
    expect(result.database[0]).toBeCloseTo(1, 12);
    expect(result.database[1]).toBeCloseTo(common / (2 * rare + common), 12);
    expect(result.table[1]).toBeCloseTo(rare / (2 * rare + common), 12);
    expect(result.bestDatabase).toBeCloseTo(1, 12);
    expect(result.bestTable).toBeCloseTo((rare + common) / (2 * rare + common), 12);
  });

  it("is all zero when no term names anything", () => {
    const result = coverage.coverage(["the", "weather"]);
    expect([...result.database]).toEqual([0, 0]);
    expect(result.bestDatabase).toBe(0);
  });
});
