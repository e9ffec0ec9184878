import { describe, expect, it } from "vitest";
import { definitionName, glossaryKnowledge, splitDefinitions } from "./defog-glossary-knowledge";

describe("glossaryKnowledge", () => {
  it("makes one entry per line: a term for a definition, a rule otherwise, a copy once, names distinct", () => {
    const entries = glossaryKnowledge(
      [
        "- sbTicker can be joined to sbDailyPrice on sbTickerId",
        "- ADV (Average Daily Volume) for a ticker = AVG(sbDpVolume) from sbDailyPrice table for that ticker",
        "- TAC = Total Active Customers who have recently joined",
        "",
        "- TAC = Total Active Customers who joined on or after January 1, 2023",
        "- sbTicker can be joined to sbDailyPrice on sbTickerId",
        "- sbticker can be joined to  sbDailyPrice on sbTickerId.",
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

  it("cuts a line that glues several definitions into one entry per definition", () => {
    // A line of defog's broker full_instructions, as the questions give it.
    const line =
      "CR = customer rank by total transaction amount MoMC = month-over-month change in average closing price each month To get the success rate of transactions per customer, join customer and transaction tables, and calculate the percentage of successful transactions. Always join transactions with customers before using the transactions table. TAC = Total Active Customers who joined after a certain date";
    expect(splitDefinitions(line)).toEqual([
      "CR = customer rank by total transaction amount",
      "MoMC = month-over-month change in average closing price each month",
      "To get the success rate of transactions per customer, join customer and transaction tables, and calculate the percentage of successful transactions.",
      "Always join transactions with customers before using the transactions table.",
      "TAC = Total Active Customers who joined after a certain date",
    ]);
    expect(glossaryKnowledge(line, "broker.json").map((entry) => [entry.kind, entry.name])).toEqual([
      ["term", "CR"],
      ["term", "MoMC"],
      ["rule", "To get the success rate of transactions per customer, join customer and…"],
      ["rule", "Always join transactions with customers before using the transactions table."],
      ["term", "TAC"],
    ]);
  });

  it("keeps a definition whole: its SQL, its expansion, a sentence that points back, lower-case words", () => {
    for (const whole of [
      "Last week = DATE_TRUNC('week', CURRENT_DATE) - INTERVAL '1 week' to DATE_TRUNC('week', CURRENT_DATE) - INTERVAL '1 millisecond'.",
      "NPM (Net Profit Margin) = (Total Income from Sales - (Tax + Commission Expenses)) / Total Income from Sales * 100",
      "Merchant category should be matched case-insensitively with wildcards, e.g., LOWER(merchants.category) LIKE '%...%'.",
      "sbTicker can be joined to sbDailyPrice on sbTickerId",
    ])
      expect(splitDefinitions(whole)).toEqual([whole]);
    expect(
      splitDefinitions(
        "CR = Rank customers by their total transaction volume. This involves joining price data with tickers.",
      ),
    ).toEqual([
      "CR = Rank customers by their total transaction volume. This involves joining price data with tickers.",
    ]);
  });

  it("keeps a part that ends mid-phrase with the definition that follows it", () => {
    expect(
      splitDefinitions("To calculate the TSC = Total Sales Count within a given period MoM = month-over-month change"),
    ).toEqual(["To calculate the TSC = Total Sales Count within a given period", "MoM = month-over-month change"]);
  });

  it("shortens a long undefined line to its first words", () => {
    const name = definitionName(
      "To get the total transaction amount per customer, join the customer and transaction tables, group by customer",
    );
    expect(name.length).toBeLessThanOrEqual(81);
    expect(name).toMatch(/^To get the total transaction amount per customer, join.*…$/);
  });
});
