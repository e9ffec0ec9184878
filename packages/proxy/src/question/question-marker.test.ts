import { ConfigurationError } from "@nlq/engine";
import { describe, expect, it } from "vitest";
import { QuestionMarker } from "./question-marker";

const marker = new QuestionMarker("nl:");

describe("QuestionMarker", () => {
  it.each([
    ["nl: x", 4],
    ["NL:x", 3],
    ["  nl :  x", 8],
    ["\n\tNl\t:x", 6],
  ])("finds the marker opening the comment body %j and its length", (body, length) => {
    expect(marker.openingLength(body)).toBe(length);
  });

  it.each(["/* nl: x */", "nl x", "note: x", "nlp: x", "x nl: y", "n l: x"])("does not open %j", (body) => {
    expect(marker.openingLength(body)).toBe(-1);
  });

  it.each([
    ["select 1", false],
    ["select 'nl: in a string'", false],
    ["select 1 /* n */", false],
    ["select 1 /* nl */", true],
    ["/* nl#2 */;", true],
    ["/* nl!: x */", true],
    ["/* NL : x */", true],
    ["-- nL:x", true],
    ["select 1 --- nl: x", true],
    ["/*note: x*/ select 1", false],
  ])("agrees on strings and bytes for %j", (text, expected) => {
    expect(marker.mayOccurIn(text)).toBe(expected);
    const bytes = Buffer.concat([Buffer.from("Q\0\0\0\0"), Buffer.from(text, "utf8")]);
    expect(marker.mayOccurInBytes(bytes, 5)).toBe(expected);
  });

  it("matches non-ASCII marker characters by their bytes and ASCII letters in any case", () => {
    const german = new QuestionMarker("frage:ü");
    const bytes = (text: string) => Buffer.from(text, "utf8");
    expect(german.mayOccurInBytes(bytes("-- FRAGE : ü wie viele?"), 0)).toBe(true);
    expect(german.mayOccurInBytes(bytes("-- frage: u wie viele?"), 0)).toBe(false);
    expect(german.openingLength(" Frage:ü wie viele?")).toBe(8);
  });

  it("matches a marker with whitespace around its colon in linear time (no nested whitespace runs)", () => {
    const spaced = new QuestionMarker("nl : ");
    expect(spaced.encodedTokens()).toEqual(new QuestionMarker("nl:").encodedTokens());
    expect(spaced.openingLength(" NL  :  x")).toBe(8);
    const started = performance.now();
    expect(spaced.mayOccurIn(`--n${" ".repeat(200_000)}l`)).toBe(false);
    expect(spaced.openingLength(`nl${" ".repeat(200_000)}x`)).toBe(-1);
    expect(spaced.freshOpeningLength(`nl!${" ".repeat(200_000)}x`)).toBe(-1);
    expect(spaced.pickNumber(`nl#2${" ".repeat(200_000)}x`)).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("reads a pick (the marker's word, #, a number) only as a whole comment body", () => {
    expect(marker.pickNumber(" nl#2 ")).toBe(2);
    expect(marker.pickNumber("NL#12")).toBe(12);
    expect(marker.pickNumber("nl#")).toBeUndefined();
    expect(marker.pickNumber("nl#2 and more")).toBeUndefined();
    expect(marker.pickNumber("nl: #2")).toBeUndefined();
    expect(new QuestionMarker("ask:").pickNumber("ask#3")).toBe(3);
    expect(new QuestionMarker("ask:").pickExample(3)).toBe("/* ask#3 */;");
  });

  it("opens a fresh question with the marker's word, ! and the rest of the marker", () => {
    expect(marker.freshOpeningLength(" nl!: x")).toBe(6);
    expect(marker.freshOpeningLength("NL! : x")).toBe(6);
    expect(marker.freshOpeningLength("nl: x")).toBe(-1);
    expect(marker.openingLength("nl!: x")).toBe(-1);
  });

  it("refuses a marker without a word", () => {
    expect(() => new QuestionMarker(" : ")).toThrow(ConfigurationError);
    expect(() => new QuestionMarker("")).toThrow(ConfigurationError);
  });
});
