import { describe, expect, it } from "vitest";
import { valueDatabaseEvidence } from "./value-database-evidence";

const databaseOf = (column: number) => (column < 10 ? "csu_1" : "university_basketball");

describe("valueDatabaseEvidence", () => {
  it("gives the database holding a value the question names its columns' best vote times the weight", () => {
    const evidence = valueDatabaseEvidence(
      [
        { keyword: "San Jose State University", column: 3, similarity: 1 },
        { keyword: "2000", column: 4, similarity: 0.9 },
      ],
      databaseOf,
    );
    expect([...evidence]).toEqual([["csu_1", 2]]);
  });

  it("spreads a value found in several databases and ignores weak hits", () => {
    const evidence = valueDatabaseEvidence(
      [
        { keyword: "Boston", column: 1, similarity: 1 },
        { keyword: "Boston", column: 12, similarity: 1 },
        { keyword: "Bost", column: 13, similarity: 0.5 },
      ],
      databaseOf,
      { weight: 1 },
    );
    expect(evidence.get("csu_1")).toBeCloseTo(Math.SQRT1_2);
    expect(evidence.get("university_basketball")).toBeCloseTo(Math.SQRT1_2);
  });

  it("is empty at weight 0", () => {
    expect(valueDatabaseEvidence([{ keyword: "x", column: 1, similarity: 1 }], databaseOf, { weight: 0 }).size).toBe(0);
  });
});
