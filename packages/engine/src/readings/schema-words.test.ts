import { describe, expect, it } from "vitest";
import { areComplementary, identifierWords, mentionsColumn, questionWords, singular } from "./schema-words";

describe("schema words", () => {
  it("splits identifiers and questions into singular lower-case words", () => {
    expect(identifierWords("SingerNames")).toEqual(["singer", "name"]);
    expect(identifierWords("address_line2")).toEqual(["address", "line", "2"]);
    expect(questionWords("What are the countries' capitals?")).toEqual(["what", "are", "the", "country", "capital"]);
    expect([singular("classes"), singular("status"), singular("analysis"), singular("cities")]).toEqual([
      "class",
      "status",
      "analysis",
      "city",
    ]);
  });

  it("finds a column the question names by its words, its last word, or two words run together", () => {
    const words = questionWords("Give the surface area and the charge amount by birth date");
    expect(mentionsColumn(words, "surfacearea")).toBe(true);
    expect(mentionsColumn(words, "charge_amount")).toBe(true);
    expect(mentionsColumn(words, "birth_date")).toBe(true);
    expect(mentionsColumn(words, "population")).toBe(false);
    // A key's last word is no evidence.
    expect(mentionsColumn(questionWords("the id of each"), "singer_id")).toBe(false);
  });

  it("knows qualifiers that name two things, not two readings of one", () => {
    expect(areComplementary("first", "last")).toBe(true);
    expect(areComplementary("home", "away")).toBe(true);
    expect(areComplementary("1", "2")).toBe(true);
    expect(areComplementary("artist", "performer")).toBe(false);
  });
});
