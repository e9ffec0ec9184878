import { describe, expect, it } from "vitest";
import { distinctKeywords } from "./extract-keywords";
import { heuristicKeywords, namedValues } from "./heuristic-keywords";

describe("keywords", () => {
  it("finds quoted phrases, named entities, numbers and content words without a model", () => {
    expect(heuristicKeywords('How many singers from New York sang "Love Story" after 2014?')).toEqual([
      "Love Story",
      "New York",
      "2014",
      "singers",
      "new",
      "york",
      "sang",
      "love",
      "story",
      "after",
    ]);
  });

  it("drops blanks and case-insensitive duplicates, keeping the first spelling", () => {
    expect(distinctKeywords([" France ", "france", "", "New  York"])).toEqual(["France", "New York"]);
  });

  it("names the question's quoted and capitalised spans as values, never the sentence's first word", () => {
    expect(namedValues('How many singers from New York sang "Love Story"?')).toEqual(["Love Story", "New York"]);
    expect(namedValues("How many customers live in Missisauga?")).toEqual(["Missisauga"]);
    expect(namedValues("how many customers?")).toEqual([]);
  });
});
