import { describe, expect, it } from "vitest";
import { normalizeIntegralDecimal, widenColumnType } from "./infer-type-widenings";

describe("widenColumnType", () => {
  it("keeps integer columns whose values are integers or integral decimals", () => {
    expect(widenColumnType("integer", ["1", "2.0", null, "-3"])).toBeUndefined();
    expect(normalizeIntegralDecimal("2.0")).toBe("2");
    expect(normalizeIntegralDecimal("-7.")).toBe("-7");
    expect(normalizeIntegralDecimal("2.5")).toBe("2.5");
  });

  it("widens integer columns holding fractions to double precision and big numbers to bigint", () => {
    expect(widenColumnType("integer", ["182.88", "170"])).toEqual({
      to: "double precision",
      reason: "holds non-integral values such as 182.88",
    });
    expect(widenColumnType("integer", ["3000000000"])?.to).toBe("bigint");
    expect(widenColumnType("smallint", ["40000"])?.to).toBe("integer");
  });

  it("leaves integer columns with non-numeric text alone (those rows are rejected and reported)", () => {
    expect(widenColumnType("integer", ["12", "n/a", "1.5"])).toBeUndefined();
  });

  it("widens varchar(n) to the longest value, counting characters not bytes", () => {
    expect(widenColumnType("varchar(2)", ["AB", "ABC"])).toEqual({
      to: "varchar(3)",
      reason: "holds values of 3 characters",
    });
    expect(widenColumnType("varchar(2)", ["ÄÖ"])).toBeUndefined();
    expect(widenColumnType("text", ["x".repeat(10_000)])).toBeUndefined();
  });
});
