import { describe, expect, it } from "vitest";
import type { Catalog } from "../catalog/catalog-types";
import type { KnowledgeEntry } from "../contract/knowledge";
import { readableQuestionKnowledge, withReferencedElements } from "./question-knowledge";

const column = (name: string, comment: string | null = null) => ({
  name,
  dataType: "integer",
  nullable: true,
  comment,
});
const catalog: Catalog = {
  tables: [
    {
      schema: "public",
      name: "customers",
      kind: "table",
      comment: "People",
      columns: [column("id"), column("name", "Full name"), column("country")],
      primaryKey: ["id"],
      foreignKeys: [],
    },
    {
      schema: "public",
      name: "orders",
      kind: "table",
      comment: null,
      columns: [column("id"), column("customer_id"), column("total_cents")],
      primaryKey: ["id"],
      foreignKeys: [],
    },
  ],
};

const entry = (fields: Partial<KnowledgeEntry> & Pick<KnowledgeEntry, "id" | "kind" | "name">): KnowledgeEntry => ({
  text: `${fields.name} text`,
  references: [],
  origin: "manual",
  sharedWithAllRoles: true,
  updatedAt: "2026-11-30T10:00:00.000Z",
  ...fields,
});

describe("readableQuestionKnowledge", () => {
  it("replaces comments with the descriptions people wrote, the role's own before a shared one, newest first", () => {
    const prepared = readableQuestionKnowledge(
      [
        entry({
          id: "shared",
          kind: "description",
          name: "public.customers",
          text: "Shared",
          references: ["public.customers"],
        }),
        entry({
          id: "own",
          kind: "description",
          name: "public.customers",
          text: "Own",
          sharedWithAllRoles: false,
          updatedAt: "2026-01-01T00:00:00.000Z",
        }),
        entry({
          id: "old",
          kind: "description",
          name: "public.orders.total_cents",
          text: "Old",
          updatedAt: "2026-01-01T00:00:00.000Z",
        }),
        entry({ id: "new", kind: "description", name: "public.orders.total_cents", text: "In cents" }),
        entry({ id: "gone", kind: "description", name: "public.refunds", text: "No such table" }),
        entry({ id: "metric", kind: "metric", name: "revenue", references: ["public.orders.total_cents"] }),
        entry({ id: "hidden", kind: "rule", name: "secret", references: ["public.customers.secret"] }),
      ],
      catalog,
    );
    const [customers, orders] = prepared.catalog.tables;
    expect(customers?.comment).toBe("Own");
    expect(customers?.columns.map((shown) => shown.comment)).toEqual([null, "Full name", null]);
    expect(orders?.columns.find((shown) => shown.name === "total_cents")?.comment).toBe("In cents");
    expect([...prepared.descriptions.values()].map((used) => used.id)).toEqual(["own", "new"]);
    expect(prepared.retrievable.map((kept) => kept.id)).toEqual(["metric"]);
    expect(readableQuestionKnowledge(undefined, catalog).catalog).toBe(catalog);
  });
});

describe("withReferencedElements", () => {
  it("adds back the tables and columns a retrieved entry names that schema selection dropped", () => {
    const selected: Catalog = {
      tables: [{ ...catalog.tables[0]!, columns: [column("id"), column("name", "Full name")] }],
    };
    const widened = withReferencedElements(selected, catalog, [
      { references: ["public.orders.total_cents", "public.customers.country"] },
    ]);
    expect(widened.tables.map((table) => [table.name, table.columns.map((shown) => shown.name)])).toEqual([
      ["customers", ["id", "name", "country"]],
      ["orders", ["id", "total_cents"]],
    ]);
    expect(withReferencedElements(selected, catalog, [{ references: [] }])).toBe(selected);
    expect(withReferencedElements(selected, catalog, [{ references: ["public.customers.name"] }])).toBe(selected);
  });
});
