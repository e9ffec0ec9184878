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

  it("lets a value found in one schema's rows raise that schema's other columns above a look-alike schema's", () => {
    const twins: Catalog = {
      tables: ["north", "south"].flatMap((schema) => [
        catalogTable(schema, "staff", ["staff_id", "staff_name", "salary", "branch_id"], { primaryKey: ["staff_id"] }),
        catalogTable(schema, "branch", ["branch_id", "city_label"], { primaryKey: ["branch_id"] }),
      ]),
    };
    const inSouth: ValueMatch = {
      ...rotterdam,
      table: "south.branch",
      source: { schema: "south", table: "branch", column: "city_label" },
    };
    const twinQuestion = "What is the salary of each staff member in Rotterdam?";
    const plain = names(
      createLearnedColumnPreselection(twins, { columns: 12, values: false })(twinQuestion, [inSouth]),
    );
    expect(plain.indexOf("north.staff.salary")).toBeLessThan(plain.indexOf("south.staff.salary"));
    const ranked = names(createLearnedColumnPreselection(twins, { columns: 12 })(twinQuestion, [inSouth]));
    expect(ranked.indexOf("south.staff.salary")).toBeLessThan(ranked.indexOf("north.staff.salary"));
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
