import { describe, expect, it } from "vitest";
import { expandGoldAlternatives } from "./gold-alternatives";

describe("expandGoldAlternatives", () => {
  it("keeps plain SQL as one alternative, without the trailing semicolon", () => {
    expect(expandGoldAlternatives("SELECT 1;")).toEqual(["SELECT 1"]);
  });

  it("splits alternative gold queries at semicolons", () => {
    expect(expandGoldAlternatives("SELECT 1; SELECT 2;")).toEqual(["SELECT 1", "SELECT 2"]);
  });

  it("expands {a,b} into every non-empty column subset and fills GROUP BY {}", () => {
    expect(expandGoldAlternatives("SELECT {a.name, a.id}, count(*) FROM a GROUP BY {} ORDER BY 2")).toEqual([
      "SELECT a.name, count(*) FROM a GROUP BY a.name ORDER BY 2",
      "SELECT a.id, count(*) FROM a GROUP BY a.id ORDER BY 2",
      "SELECT a.name, a.id, count(*) FROM a GROUP BY a.name, a.id ORDER BY 2",
    ]);
  });

  it("expands three options into seven alternatives", () => {
    expect(expandGoldAlternatives("SELECT {x,y,z} FROM t")).toHaveLength(7);
  });
});
