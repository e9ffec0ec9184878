import type { Catalog } from "@nlq/engine";
import { describe, expect, it } from "vitest";
import { readableTables } from "./readable-schema";

describe("readableTables", () => {
  it("names public tables without their schema, keeps descriptions, keys, references and at most five values", () => {
    const catalog = {
      tables: [
        {
          oid: "1",
          schema: "public",
          name: "orders",
          kind: "table",
          comment: "One row per order",
          primaryKey: ["order_id"],
          foreignKeys: [
            {
              columns: ["customer_id"],
              referencedSchema: "public",
              referencedTable: "customers",
              referencedColumns: ["customer_id"],
            },
          ],
          columns: [
            { name: "order_id", dataType: "integer", comment: null },
            {
              name: "status",
              dataType: "text",
              comment: "placed, shipped, …",
              sampleValues: ["a", "b", "c", "d", "e", "f"],
            },
          ],
        },
        {
          oid: "2",
          schema: "sales",
          name: "targets",
          kind: "view",
          comment: null,
          primaryKey: [],
          foreignKeys: [],
          columns: [],
        },
      ],
    } as unknown as Catalog;
    const tables = readableTables(catalog);
    expect(tables.map((table) => table.name)).toEqual(["orders", "sales.targets"]);
    expect(tables[0]).toMatchObject({
      description: "One row per order",
      primaryKey: ["order_id"],
      foreignKeys: ["(customer_id) → customers (customer_id)"],
    });
    expect(tables[0]?.columns[1]).toEqual({
      name: "status",
      type: "text",
      description: "placed, shipped, …",
      values: ["a", "b", "c", "d", "e"],
    });
  });
});
