import type { Catalog } from "@nlq/engine";
import { describe, expect, it } from "vitest";
import { extractGoldSchema, goldAsHallucination, sqlIdentifiers } from "./gold-columns";

const column = (name: string) => ({ name, dataType: "text", nullable: true, comment: null });
const catalog: Catalog = {
  tables: [
    {
      schema: "shop",
      name: "customers",
      kind: "table",
      comment: null,
      primaryKey: [],
      foreignKeys: [],
      columns: ["customer_id", "customer_name"].map(column),
    },
    {
      schema: "shop",
      name: "orders",
      kind: "table",
      comment: null,
      primaryKey: [],
      foreignKeys: [],
      columns: ["order_id", "customer_id", "order_date", "status"].map(column),
    },
    {
      schema: "other",
      name: "orders",
      kind: "table",
      comment: null,
      primaryKey: [],
      foreignKeys: [],
      columns: ["x"].map(column),
    },
  ],
};

describe("gold columns of Spider SQL", () => {
  it("skips string literals", () => {
    expect(sqlIdentifiers("SELECT `a` FROM `T` WHERE b = 'it''s `c`'")).toEqual([
      "SELECT",
      "a",
      "FROM",
      "T",
      "WHERE",
      "b",
    ]);
  });

  it("finds tables of the question's schema and their mentioned columns through aliases", () => {
    const gold = extractGoldSchema(
      catalog,
      "shop",
      "SELECT `t2`.`order_date` FROM `Customers` AS `t1` JOIN `Orders` AS `t2` ON `t1`.`customer_id` = `t2`.`customer_id` WHERE `t1`.`customer_name` = 'status'",
    );
    expect(gold.tables).toEqual(["shop.customers", "shop.orders"]);
    expect(Object.fromEntries(gold.columns)).toEqual({
      "shop.customers": ["customer_id", "customer_name"],
      "shop.orders": ["customer_id", "order_date"],
    });
    expect(goldAsHallucination(gold)).toEqual([
      "customers(customer_id, customer_name)",
      "orders(customer_id, order_date)",
    ]);
  });
});
