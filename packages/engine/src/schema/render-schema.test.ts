import { describe, expect, it } from "vitest";
import type { Catalog } from "../catalog/catalog-types";
import { renderSchema } from "./render-schema";

const catalog: Catalog = {
  tables: [
    {
      schema: "public",
      name: "customers",
      kind: "table",
      comment: "People who buy\nthings",
      columns: [
        { name: "id", dataType: "integer", nullable: false, comment: null },
        {
          name: "name",
          dataType: "text",
          nullable: false,
          comment: "Full name",
          sampleValues: ["Ada Lovelace", "O'Brien"],
        },
        { name: "Country Code", dataType: "character(2)", nullable: true, comment: null, sampleValues: ["FR"] },
      ],
      primaryKey: ["id"],
      foreignKeys: [],
    },
    {
      schema: "sales",
      name: "orders",
      kind: "table",
      comment: null,
      columns: [
        { name: "id", dataType: "bigint", nullable: false, comment: null },
        { name: "customer_id", dataType: "integer", nullable: true, comment: null },
        { name: "order", dataType: "integer", nullable: true, comment: "position" },
        { name: "status", dataType: "order_status", nullable: false, comment: null, enumValues: ["open", "shipped"] },
      ],
      primaryKey: ["id"],
      foreignKeys: [
        {
          name: "orders_customer_id_fkey",
          columns: ["customer_id"],
          referencedSchema: "public",
          referencedTable: "customers",
          referencedColumns: ["id"],
        },
      ],
    },
    {
      schema: "sales",
      name: "big_orders",
      kind: "view",
      comment: null,
      columns: [{ name: "id", dataType: "bigint", nullable: true, comment: null }],
      primaryKey: [],
      foreignKeys: [],
    },
  ],
};

describe("renderSchema", () => {
  it("renders DDL with keys, comments and example values", () => {
    expect(renderSchema(catalog)).toMatchInlineSnapshot(`
      "-- People who buy things
      CREATE TABLE customers (
        id integer NOT NULL,
        name text NOT NULL, -- Full name; examples: 'Ada Lovelace', 'O''Brien'
        "Country Code" character(2), -- examples: 'FR'
        PRIMARY KEY (id)
      );

      CREATE TABLE sales.orders (
        id bigint NOT NULL,
        customer_id integer,
        "order" integer, -- position
        status order_status NOT NULL, -- values: 'open', 'shipped'
        PRIMARY KEY (id),
        FOREIGN KEY (customer_id) REFERENCES customers (id)
      );

      CREATE VIEW sales.big_orders (
        id bigint
      );"
    `);
  });

  it("renders an empty catalog as empty text", () => {
    expect(renderSchema({ tables: [] })).toBe("");
  });
});
