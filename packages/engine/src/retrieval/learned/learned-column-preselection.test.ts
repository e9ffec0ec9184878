import { describe, expect, it } from "vitest";
import type { Catalog } from "../../catalog/catalog-types";
import { catalogTable } from "../../testing/catalog-table";
import type { ValueMatch } from "../retrieve";
import { createLearnedColumnPreselection } from "./learned-column-preselection";

const catalog: Catalog = {
  tables: [
    catalogTable("public", "employee", ["employee_id", "employee_name", "salary", "office_id"], {
      primaryKey: ["employee_id"],
      foreignKeys: [
        {
          name: "e_o",
          columns: ["office_id"],
          referencedSchema: "public",
          referencedTable: "office",
          referencedColumns: ["office_id"],
        },
      ],
    }),
    catalogTable("public", "office", ["office_id", "city_label", "floor_count"], { primaryKey: ["office_id"] }),
    catalogTable("public", "product", ["product_id", "product_name", "price"], { primaryKey: ["product_id"] }),
  ],
};
const rotterdam: ValueMatch = {
  keyword: "Rotterdam",
  table: "public.office",
  column: "city_label",
  value: "Rotterdam",
  source: { schema: "public", table: "office", column: "city_label" },
  editSimilarity: 1,
};
const question = "What is the salary of each employee in Rotterdam?";
const names = (columns: { table: string; column: string }[]) =>
  columns.map(({ table, column }) => `${table}.${column}`);

describe("createLearnedColumnPreselection", () => {
  it("lets a value the question names vote for its column", () => {
    const rank = createLearnedColumnPreselection(catalog, { columns: 3 });
    expect(names(rank(question))).not.toContain("public.office.city_label");
    expect(names(rank(question, [rotterdam]))).toContain("public.office.city_label");
  });

  it("ignores value matches when values are off", () => {
    const rank = createLearnedColumnPreselection(catalog, { columns: 3, values: false });
    expect(rank(question, [rotterdam])).toEqual(rank(question));
  });

  it("pulls in the join keys between selected tables (structure step, on by default)", () => {
    const without = names(
      createLearnedColumnPreselection(catalog, { columns: 4, structure: false })(question, [rotterdam]),
    );
    expect(without.filter((name) => name.endsWith("office_id"))).not.toHaveLength(2);
    const rank = createLearnedColumnPreselection(catalog, { columns: 4 });
    const ranked = names(rank(question, [rotterdam]));
    expect(ranked).toContain("public.employee.office_id");
    expect(ranked).toContain("public.office.office_id");
  });
});
