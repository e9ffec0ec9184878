import { describe, expect, it } from "vitest";
import type { Catalog } from "../catalog/catalog-types";
import { renderSchema } from "../schema/render-schema";
import { catalogTable } from "../testing/catalog-table";
import { renderSchemaForSample, shuffleCatalogForSample } from "./sample-schema";

const catalog: Catalog = {
  tables: [
    catalogTable("public", "customers", ["customer_id", "first_name", "last_name", "city", "country", "email"], {
      primaryKey: ["customer_id"],
    }),
    catalogTable("public", "orders", ["order_id", "customer_id", "store_id", "status", "ordered_at", "total"], {
      primaryKey: ["order_id"],
      foreignKeys: [
        {
          name: "orders_customer_fk",
          columns: ["customer_id"],
          referencedSchema: "public",
          referencedTable: "customers",
          referencedColumns: ["customer_id"],
        },
      ],
    }),
    catalogTable("public", "stores", ["store_id", "name", "channel"], { primaryKey: ["store_id"] }),
    catalogTable("public", "products", ["product_id", "name", "price", "category_id"]),
    catalogTable("sales", "returns", ["return_id", "order_id", "quantity", "reason"]),
  ],
};

const order = (shuffled: Catalog) =>
  shuffled.tables.map((table) => `${table.name}(${table.columns.map((c) => c.name).join(",")})`);

describe("shuffleCatalogForSample", () => {
  it("keeps the catalog order for sample 0", () => {
    expect(shuffleCatalogForSample(catalog, 0)).toBe(catalog);
    expect(renderSchemaForSample(catalog, 0)).toBe(renderSchema(catalog));
  });

  it("gives the same order for the same sample every time", () => {
    expect(order(shuffleCatalogForSample(catalog, 3))).toEqual(order(shuffleCatalogForSample(catalog, 3)));
    expect(renderSchemaForSample(catalog, 1)).toBe(renderSchemaForSample(catalog, 1));
  });

  it("gives different orders to different samples", () => {
    const orders = [0, 1, 2, 3, 4, 5].map((sample) => order(shuffleCatalogForSample(catalog, sample)).join(" "));
    expect(new Set(orders).size).toBe(orders.length);
    const tableOrders = [1, 2, 3, 4].map((sample) =>
      shuffleCatalogForSample(catalog, sample)
        .tables.map((table) => table.name)
        .join(","),
    );
    expect(new Set(tableOrders).size).toBeGreaterThan(1);
  });

  it("keeps every table, column and key: only the order changes", () => {
    for (const sample of [1, 2, 7]) {
      const shuffled = shuffleCatalogForSample(catalog, sample);
      expect(shuffled.tables.map((table) => table.name).sort()).toEqual(
        catalog.tables.map((table) => table.name).sort(),
      );
      for (const table of catalog.tables) {
        const same = shuffled.tables.find((candidate) => candidate.name === table.name);
        expect(same?.columns.map((column) => column.name).sort()).toEqual(
          table.columns.map((column) => column.name).sort(),
        );
        expect(same?.primaryKey).toEqual(table.primaryKey);
        expect(same?.foreignKeys).toEqual(table.foreignKeys);
      }
      const rendered = renderSchemaForSample(catalog, sample);
      expect(rendered).toContain("  FOREIGN KEY (customer_id) REFERENCES customers (customer_id)");
      expect(rendered).toContain("  PRIMARY KEY (order_id)");
      // Same lines as sample 0's rendering (a column's trailing comma depends on its position).
      const lines = (text: string) =>
        text
          .split("\n")
          .map((line) => line.replace(/,$/, ""))
          .sort();
      expect(lines(rendered)).toEqual(lines(renderSchema(catalog)));
    }
  });

  it("does not change the catalog it is given", () => {
    const before = JSON.stringify(catalog);
    shuffleCatalogForSample(catalog, 5);
    expect(JSON.stringify(catalog)).toBe(before);
  });
});
