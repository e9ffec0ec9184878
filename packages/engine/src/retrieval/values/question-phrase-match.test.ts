import { describe, expect, it } from "vitest";
import { phraseSimilarity, schemaNameWords, typoSimilarity, valuesWorthShowing } from "./question-phrase-match";

const match = (keyword: string, value: string, column = "name", table = "public.city") => ({
  keyword,
  table,
  column,
  value,
});

describe("values worth showing", () => {
  it("matches whole-word phrases of the question, typos included, never a part of a word", () => {
    expect(phraseSimilarity("How many people live in Rotterdm?", "Rotterdam")).toBeGreaterThan(0.85);
    expect(phraseSimilarity("hotels in Sna Francisco", "San Francisco")).toBeGreaterThan(0.8);
    expect(phraseSimilarity("sales in 2022", "KP022")).toBeCloseTo(0.6, 5);
    expect(phraseSimilarity("sales in 2022", "22")).toBeLessThan(0.8);
  });

  it("keeps values that help, drops look-alikes, and lists each column and value once", () => {
    const question = "What was the revenue of Stanford in 2022 and how many stores are in Rotterdm?";
    const shown = valuesWorthShowing(question, [
      match("revenue", "Deven", "first_name", "public.customer"),
      match("2022", "KP022", "sbtxkpx", "public.plant"),
      match("Rotterdm", "Rotterdam"),
      match("stores", "Rotterdam"),
      match("Stanford", "Stanford University", "name", "public.school"),
      match("with", "With love", "title", "public.song"),
    ]);
    expect(shown.map((value) => value.value)).toEqual(["Rotterdam", "Stanford University"]);
    expect(shown[0]!.keyword).toBe("Rotterdm");
  });

  it("accepts a value that matches its keyword even when the question words it differently", () => {
    expect(valuesWorthShowing("customers from the USA", [match("United States", "united states")])).toHaveLength(1);
  });
});

describe("typo similarity", () => {
  it("counts a swap of neighbouring letters as one edit", () => {
    expect(typoSimilarity("Frnace", "France")).toBeCloseTo(1 - 1 / 6, 6);
    expect(typoSimilarity("kitten", "sitting")).toBeCloseTo(1 - 3 / 7, 6);
    expect(typoSimilarity("", "")).toBe(1);
  });
});

describe("values that restate the schema", () => {
  it("are not shown: a value made only of the schema's own name words says nothing the schema does not", () => {
    const schemaWords = schemaNameWords(["singer", "country", "concert_name"]);
    const shown = valuesWorthShowing(
      "How many singers from France sang in concerts?",
      [
        match("singers", "Singer", "role"),
        match("France", "France", "country"),
        match("concerts", "Concert Name", "kind"),
      ],
      { schemaWords },
    );
    expect(shown.map((value) => value.value)).toEqual(["France"]);
  });
});
