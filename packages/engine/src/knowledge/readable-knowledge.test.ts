import { describe, expect, it } from "vitest";
import type { Catalog } from "../catalog/catalog-types";
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
