import { beforeAll, describe, expect, it, vi } from "vitest";
import type { Catalog } from "../catalog/catalog-types";
import { loadSqlParser } from "../sql/validate-sql";
import { readableElementNames, readableKnowledge } from "./readable-knowledge";

const catalog: Catalog = {
  tables: [
    {
      schema: "public",
      name: "orders",
      kind: "table",
      comment: null,
      columns: [
        { name: "id", dataType: "integer", nullable: false, comment: null },
        { name: "amount_cents", dataType: "integer", nullable: false, comment: null },
      ],
      primaryKey: ["id"],
      foreignKeys: [],
    },
  ],
};

const entry = (name: string, references: string[], reading?: { chosen: string[]; alternatives: string[] }) => ({
  name,
  references,
  ...(reading
    ? {
        reading: {
          phrase: name,
          chosen: { label: "chosen", elements: reading.chosen },
          alternatives: [{ label: "other", elements: reading.alternatives }],
        },
      }
    : {}),
});

describe("readableKnowledge", () => {
  it("keeps an entry only when every table and column it names is in the role's catalog", () => {
    const entries = [
      entry("glossary only", []),
      entry("revenue", ["public.orders", "public.orders.amount_cents"]),
      entry("salary", ["public.orders", "public.employees.salary"]),
      entry("hidden column", ["public.orders.margin"]),
      entry("unqualified", ["orders"]),
      entry("amount", [], { chosen: ["public.orders.amount_cents"], alternatives: ["public.refunds.amount"] }),
      entry("id", [], { chosen: ["public.orders.id"], alternatives: ["public.orders"] }),
    ];
    expect(readableKnowledge(entries, catalog).map((kept) => kept.name)).toEqual(["glossary only", "revenue", "id"]);
    expect(readableKnowledge(entries, readableElementNames(catalog)).map((kept) => kept.name)).toEqual([
      "glossary only",
      "revenue",
      "id",
    ]);
    expect(readableKnowledge(entries, { tables: [] }).map((kept) => kept.name)).toEqual(["glossary only"]);
  });
});

describe("readableKnowledge and an entry's SQL", () => {
  beforeAll(() => loadSqlParser());
  const catalogWith = (tables: Catalog["tables"]) => ({ tables });
  const table = (schema: string, name: string, columns: string[]): Catalog["tables"][number] => ({
    schema,
    name,
    kind: "table",
    comment: null,
    columns: columns.map((column) => ({ name: column, dataType: "integer", nullable: true, comment: null })),
    primaryKey: [],
    foreignKeys: [],
  });
  const shop = catalogWith([
    table("public", "orders", ["id", "amount_cents", "is_test"]),
    table("crm", "people", ["id"]),
  ]);
  const metric = (name: string, sql: string, references: string[] = []) => ({ name, references, sql });

  it("drops an entry whose SQL names a table or column the role may not read, as if it were a reference", () => {
    const entries = [
      metric("revenue", "sum(amount_cents) / 100.0"),
      metric("rule", "is_test = false"),
      metric("by alias", "sum(o.amount_cents)"),
      metric("subquery", "(SELECT count(*) FROM orders WHERE NOT is_test)"),
      metric("other schema", "(SELECT count(id) FROM crm.people)"),
      metric("hidden column", "sum(margin_cents)"),
      metric("hidden table", "(SELECT sum(amount) FROM salaries)"),
      metric("hidden schema", "(SELECT count(*) FROM hr.orders)"),
      metric("qualified hidden column", "sum(public.orders.margin_cents)"),
      metric("qualified other table", "sum(crm.people.amount_cents)"),
      metric("unparseable", "sum(amount_cents"),
    ];
    const kept = ["revenue", "rule", "by alias", "subquery", "other schema"];
    expect(readableKnowledge(entries, shop).map((entry) => entry.name)).toEqual(kept);
    expect(readableKnowledge(entries, readableElementNames(shop)).map((entry) => entry.name)).toEqual(kept);
  });

  it("resolves a column against the tables the SQL reads or the entry references, when it names any", () => {
    const entries = [
      metric("people's amounts", "(SELECT sum(amount_cents) FROM crm.people)"),
      metric("referenced", "sum(amount_cents)", ["crm.people"]),
      metric("referenced orders", "sum(amount_cents)", ["public.orders"]),
    ];
    expect(readableKnowledge(entries, shop).map((entry) => entry.name)).toEqual(["referenced orders"]);
  });

  it("refuses to check SQL before the parser is loaded rather than pass it unchecked", async () => {
    vi.resetModules();
    const fresh = await import("./readable-knowledge");
    const { SqlParserNotLoadedError } = await import("./knowledge-sql-names");
    expect(() => fresh.readableKnowledge([metric("revenue", "sum(amount_cents)")], shop)).toThrow(
      SqlParserNotLoadedError,
    );
    expect(fresh.readableKnowledge([metric("glossary", "")], shop)).toHaveLength(1);
  });
});
