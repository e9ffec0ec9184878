import { describe, expect, it } from "vitest";
import { quotedPrefix, textPrefix } from "./quoted-prefix";

describe("quotedPrefix", () => {
  it("quotes short text whole and long text as its first 80 characters and an ellipsis", () => {
    expect(quotedPrefix("how many orders?")).toBe('"how many orders?"');
    const long = "x".repeat(1_100_000);
    expect(quotedPrefix(long)).toBe(`"${"x".repeat(80)}…"`);
    expect(quotedPrefix("abcdef", 3)).toBe('"abc…"');
  });

  it("keeps newlines and quotes on one line", () => {
    expect(quotedPrefix('say "hi"\nnow')).toBe('"say \\"hi\\"\\nnow"');
  });

  it("counts characters, not UTF-16 units, and never splits a surrogate pair", () => {
    expect(textPrefix("😀😀😀", 2)).toBe("😀😀…");
    expect(textPrefix("😀😀", 2)).toBe("😀😀");
  });
});
