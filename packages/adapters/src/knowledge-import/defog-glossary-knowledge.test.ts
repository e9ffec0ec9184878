import { describe, expect, it } from "vitest";
import { definitionName, glossaryKnowledge } from "./defog-glossary-knowledge";

describe("glossaryKnowledge", () => {
  it("makes one entry per line: a term for a definition, a rule otherwise, names distinct", () => {
    const entries = glossaryKnowledge(
      [
        "- sbTicker can be joined to sbDailyPrice on sbTickerId",
        "- ADV (Average Daily Volume) for a ticker = AVG(sbDpVolume) from sbDailyPrice table for that ticker",
        "- TAC = Total Active Customers who have recently joined",
        "",
        "- TAC = Total Active Customers who joined on or after January 1, 2023",
        "- sbTicker can be joined to sbDailyPrice on sbTickerId",
      ].join("\n"),
      "broker.json",
    );
    expect(entries.map((entry) => [entry.kind, entry.name])).toEqual([
      ["rule", "sbTicker can be joined to sbDailyPrice on sbTickerId"],
      ["term", "ADV (Average Daily Volume) for a ticker"],
      ["term", "TAC"],
      ["term", "TAC (2)"],
    ]);
    expect(entries[1]).toEqual({
      kind: "term",
      name: "ADV (Average Daily Volume) for a ticker",
      text: "ADV (Average Daily Volume) for a ticker = AVG(sbDpVolume) from sbDailyPrice table for that ticker",
      references: [],
      externalId: "broker.json#2",
    });
  });

  it("shortens a long undefined line to its first words", () => {
    const name = definitionName(
      "To get the total transaction amount per customer, join the customer and transaction tables, group by customer",
    );
    expect(name.length).toBeLessThanOrEqual(81);
    expect(name).toMatch(/^To get the total transaction amount per customer, join.*…$/);
  });
});
