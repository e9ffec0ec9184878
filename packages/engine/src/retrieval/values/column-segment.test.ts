import { describe, expect, it } from "vitest";
import { hashColumnSegment } from "./column-segment";
import { bandKeys, DEFAULT_LSH_PARAMETERS } from "./min-hash";
import { normalizeValue } from "./normalize-value";
import { gramHashes, writeGramHashes } from "./shingles";

const column = { schema: "public", table: "t", column: "c" };
const values = [
  "Alameda",
  "",
  "   ",
  "aaaaaaaaaaaa", // one gram repeated: duplicates must not change the minima
  "Los Ángeles",
  "Ville 1234 – Zürich",
  "😀 emoji 😀",
  "x".repeat(70) + "y".repeat(300), // longer than the reused buffer's first size
  "San Mateo",
];

describe("hashColumnSegment", () => {
  it("gives every value the band keys of its sorted, duplicate-free gram set", () => {
    const segment = hashColumnSegment(column, [...values, "Alameda"], DEFAULT_LSH_PARAMETERS);
    expect(segment.values).toEqual(values);
    const bands = DEFAULT_LSH_PARAMETERS.bands;
    values.forEach((value, index) => {
      expect(segment.bandKeys.subarray(index * bands, (index + 1) * bands)).toEqual(
        bandKeys(gramHashes(normalizeValue(value)), DEFAULT_LSH_PARAMETERS),
      );
    });
  });
});

describe("writeGramHashes", () => {
  it("writes the padded grams in text order, duplicates included, and refuses a buffer too small", () => {
    const target = new Uint32Array(8);
    expect(writeGramHashes("", target)).toBe(0);
    expect(writeGramHashes("abab", target)).toBe(4);
    expect([...new Set(target.subarray(0, 4))].sort((left, right) => left - right)).toEqual([...gramHashes("abab")]);
    expect(target[1]).not.toBe(target[2]);
    expect(() => writeGramHashes("abcdefghi", target)).toThrow(RangeError);
  });
});
