import { describe, expect, it } from "vitest";
import { formatValue } from "./format-value";

describe("formatValue", () => {
  it("formats measures, never identifiers or years", () => {
    expect(formatValue("1234567.891", { name: "revenue", dataTypeId: 1700 })).toBe("1,234,567.89");
    expect(formatValue("1500", { name: "customers", dataTypeId: 20 })).toBe("1,500");
    expect(formatValue("123456", { name: "customer_id", dataTypeId: 23 })).toBe("123456");
    expect(formatValue("2025", { name: "year", dataTypeId: 23 })).toBe("2025");
    expect(formatValue("98765432109876543210", { name: "total", dataTypeId: 1700 })).toBe("98765432109876543210");
    expect(formatValue(null, { name: "revenue", dataTypeId: 1700 })).toBeNull();
  });

  it("shortens timestamps and keeps dates and text", () => {
    expect(formatValue("2025-03-01 14:05:00+00", { name: "at", dataTypeId: 1184 })).toBe("2025-03-01 14:05");
    expect(formatValue("2025-03-01 14:05:07.5+02", { name: "at", dataTypeId: 1184 })).toBe("2025-03-01 14:05:07.5 +02");
    expect(formatValue("2025-03-01 00:00:00", { name: "at", dataTypeId: 1114 })).toBe("2025-03-01 00:00");
    expect(formatValue("2025-03-01", { name: "day", dataTypeId: 1082 })).toBe("2025-03-01");
    expect(formatValue("Berlin", { name: "city", dataTypeId: 25 })).toBe("Berlin");
  });
});
