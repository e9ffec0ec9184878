import { describe, expect, it } from "vitest";
import { compareOutputs, normalizeNames } from "./compare-outputs";

describe("compareOutputs", () => {
  it("finds nothing between identical outputs", () => {
    expect(compareOutputs(Buffer.from("a\nb\n"), Buffer.from("a\nb\n"))).toBeUndefined();
  });

  it("names the first differing line, a carriage return included, and a missing line", () => {
    expect(compareOutputs(Buffer.from("a\nb\r\nc"), Buffer.from("a\nb\nc"))).toEqual({
      line: 2,
      direct: "b\r",
      proxied: "b",
    });
    expect(compareOutputs(Buffer.from("a\n"), Buffer.from("a\nextra"))).toEqual({
      line: 2,
      direct: "",
      proxied: "extra",
    });
    expect(compareOutputs(Buffer.from("a"), Buffer.from("a\n"))).toEqual({ line: 2, direct: undefined, proxied: "" });
  });

  it("tells apart outputs that differ only in invalid UTF-8 bytes", () => {
    const difference = compareOutputs(Buffer.from([0x61, 0x0a, 0xff]), Buffer.from([0x61, 0x0a, 0xfe]));
    expect(difference?.line).toBe(2);
  });
});

describe("normalizeNames", () => {
  it("replaces each database name, byte for byte elsewhere", () => {
    const output = Buffer.from("db nlq_parity_1_d here, \xe9 kept", "latin1");
    expect(normalizeNames(output, ["nlq_parity_1_d", "nlq_parity_1_p"], "nlq_parity_1_x").toString("latin1")).toBe(
      "db nlq_parity_1_x here, \xe9 kept",
    );
  });
});
