import { describe, expect, it } from "vitest";
import type { Catalog } from "../catalog/catalog-types";
import { catalogTable } from "../testing/catalog-table";
import { wholeSchemaCatalog } from "./whole-schema-catalog";

const foreignKey = (table: string) => ({
  name: `${table}_fk`,
  columns: ["id"],
  referencedSchema: "public",
  referencedTable: table,
  referencedColumns: ["id"],
});

const full: Catalog = {
  tables: [
    catalogTable("public", "a", ["id"]),
    catalogTable("public", "b", ["id"], { foreignKeys: [foreignKey("d")] }),
    catalogTable("public", "c", ["id"]),
    catalogTable("public", "d", ["id"]),
    catalogTable("public", "e", ["id"], { foreignKeys: [foreignKey("d")] }),
  ],
};
const names = (catalog: Catalog) => catalog.tables.map((table) => table.name);

describe("wholeSchemaCatalog", () => {
  it("keeps every table when they fit", () => {
    expect(wholeSchemaCatalog(full, { tables: [] }, 5)).toBe(full);
  });

  it("takes the selected tables, then their foreign-key neighbours, then the rest, in catalog order", () => {
    const selected: Catalog = { tables: [catalogTable("public", "d", ["id"])] };
    expect(names(wholeSchemaCatalog(full, selected, 1))).toEqual(["d"]);
    expect(names(wholeSchemaCatalog(full, selected, 3))).toEqual(["b", "d", "e"]);
    expect(names(wholeSchemaCatalog(full, selected, 4))).toEqual(["a", "b", "d", "e"]);
    const fromB: Catalog = { tables: [catalogTable("public", "b", ["id"])] };
    expect(names(wholeSchemaCatalog(full, fromB, 2))).toEqual(["b", "d"]);
  });
});
