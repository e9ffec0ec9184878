import { maxAnswerSentenceLength } from "@nlq/prompts";
import { describe, expect, it } from "vitest";
import { plainSentence } from "./plain-sentence";

describe("plainSentence", () => {
  it("keeps an ordinary sentence as it is, trimmed", () => {
    expect(plainSentence("  There are 1,200 customers.\n")).toBe("There are 1,200 customers.");
  });

  it("removes terminal escapes, line breaks and bidirectional overrides", () => {
    expect(plainSentence("Total\u001b[31m red\u001b[0m\r\nnext\u202eevil\u2066 x\u200b")).toBe(
      "Total [31m red [0m next evil x",
    );
  });

  it("cuts a text past the cap with an ellipsis, never splitting a character", () => {
    const long = "😀".repeat(maxAnswerSentenceLength + 5);
    const cut = plainSentence(long);
    expect(Array.from(cut)).toHaveLength(maxAnswerSentenceLength);
    expect(cut.endsWith("😀…")).toBe(true);
    expect(plainSentence("abcdef", 4)).toBe("abc…");
  });

  it("leaves nothing when the text held only whitespace and control characters", () => {
    expect(plainSentence(" \u0000\u0007\n\t ")).toBe("");
  });

  it("keeps markup as literal text (surfaces never render it)", () => {
    expect(plainSentence("<b>3</b> customers")).toBe("<b>3</b> customers");
  });
});
