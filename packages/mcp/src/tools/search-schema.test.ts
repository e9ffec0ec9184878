import type { TableInfo } from "@nlq/engine";
import { describe, expect, it } from "vitest";
import { searchTerms, tableScore } from "./search-schema";

const orders: TableInfo = {
  schema: "shop",
  name: "orders",
  kind: "table",
  comment: "one row per purchase",
  columns: [
    { name: "id", dataType: "integer", nullable: false, comment: null },
    { name: "customer_id", dataType: "integer", nullable: false, comment: "who bought" },
  ],
  primaryKey: ["id"],
  foreignKeys: [],
};

describe("search_schema matching", () => {
  it("splits a query into lower-case words", () => {
    expect(searchTerms("Customer ORDERS, 2024!")).toEqual(["customer", "orders", "2024"]);
    expect(searchTerms("*")).toEqual([]);
  });

  it("ranks a table name above a column name above a description, and matches everything without words", () => {
    expect(tableScore(orders, ["orders"])).toBe(3);
    expect(tableScore(orders, ["customer"])).toBe(2);
    expect(tableScore(orders, ["purchase"])).toBe(1);
    expect(tableScore(orders, ["bought", "customer"])).toBe(3);
    expect(tableScore(orders, ["invoices"])).toBe(0);
    expect(tableScore(orders, [])).toBe(1);
  });
});
