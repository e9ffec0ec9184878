import { describe, expect, it } from "vitest";
import type { KnowledgeEntry } from "../contract/knowledge";
import { createOfflineEmbeddingModel } from "../embedding/offline-embedding-model";
import { nameAliases, retrieveKnowledge } from "./retrieve-knowledge";

const entry = (id: string, kind: KnowledgeEntry["kind"], name: string, text: string, sql?: string): KnowledgeEntry => ({
  id,
  kind,
  name,
  text,
  ...(sql ? { sql } : {}),
  references: [],
  origin: "manual",
  sharedWithAllRoles: true,
  updatedAt: "2026-11-30T10:00:00.000Z",
});

// Lines of defog's broker glossary (its instruct_advanced questions' full_instructions), as an import keeps them.
const glossary = [
  entry("tac", "term", "TAC", "TAC = Total Active Customers who joined on or after January 1, 2023"),
  entry("acp", "term", "ACP", "ACP = Average Closing Price of tickers in the last 7 days, inclusive of today"),
  entry(
    "total",
    "rule",
    "total transaction amount per customer",
    "To get the total transaction amount per customer, join the customer and transaction tables, group by customer, and sum the transaction amounts.",
  ),
  entry(
    "weekend",
    "rule",
    "weekend days",
    "Weekend days are Saturday and Sunday. Truncate date to week for aggregation.",
  ),
  entry("spm", "metric", "SPM", "Selling Profit Margin", "(sum(amount) - sum(tax + commission)) / sum(amount) * 100"),
];

describe("nameAliases", () => {
  it("asks a name by itself, without its counter, and by each side of an expansion in brackets", () => {
    expect(nameAliases("ASP (average selling price)").map((alias) => alias.trim())).toEqual([
      "asp average selling price",
      "asp",
      "average selling price",
    ]);
    expect(nameAliases("ASP (3)").map((alias) => alias.trim())).toEqual(["asp 3", "asp"]);
    expect(nameAliases("TAC").map((alias) => alias.trim())).toEqual(["tac"]);
  });
});

describe("retrieveKnowledge", () => {
  it("finds a definition named by its abbreviation and expansion as surely as one named by the abbreviation alone", async () => {
    // defog's car_dealership glossary: the precise definition is named with its expansion, the vague ones without.
    const definitions = [
      entry("vague", "term", "ASP", "ASP = Mean sale price for a designated start period"),
      entry("vague-2", "term", "ASP (2)", "ASP = Average Sale Price during a specific timeframe"),
      entry(
        "precise",
        "term",
        "ASP (average selling price)",
        "ASP (average selling price) = total sales amount / number of sales",
      ),
      entry("join", "rule", "join sales with cars", "Always join sales with cars before using the sales table"),
    ];
    const found = await retrieveKnowledge({
      entries: definitions,
      question: "Who are the top 3 salespersons by ASP?",
      keywords: ["salespersons", "ASP"],
    });
    expect(
      found
        .filter(({ lexical }) => lexical === 1)
        .map(({ entry }) => entry.id)
        .sort(),
    ).toEqual(["precise", "vague", "vague-2"]);
  });

  it("finds an entry by its name as a phrase of the question, and by the words its text shares with the question", async () => {
    const byName = await retrieveKnowledge({ entries: glossary, question: "What is the TAC?", keywords: [] });
    expect(byName.map(({ entry }) => entry.id)).toEqual(["tac"]);
    expect(byName[0]?.lexical).toBe(1);

    const byText = await retrieveKnowledge({
      entries: glossary,
      question: "Who are the top 5 customers by total transaction amount?",
      keywords: ["customers", "transaction amount"],
    });
    expect(byText.map(({ entry }) => entry.id)[0]).toBe("total");
    expect(byText.map(({ entry }) => entry.id)).not.toContain("weekend");
  });

  it("adds entries the embedding finds close, never unrelated ones, and keeps at most the limit", async () => {
    const model = createOfflineEmbeddingModel();
    const retrieved = await retrieveKnowledge({
      entries: glossary,
      question: "How many transactions happened on weekends?",
      keywords: ["transactions", "weekends"],
      embeddingModel: model,
    });
    expect(retrieved.map(({ entry }) => entry.id)).toContain("weekend");
    expect(retrieved.map(({ entry }) => entry.id)).not.toContain("acp");
    const limited = await retrieveKnowledge({
      entries: glossary,
      question: "TAC, ACP, SPM and weekend transactions per customer",
      keywords: [],
      embeddingModel: model,
      limit: 2,
    });
    // The limit, and the one short rule sharing a word with the question ("weekend") beyond it.
    expect(limited).toHaveLength(3);
    expect(limited[2]!.entry.id).toBe("weekend");
    expect(await retrieveKnowledge({ entries: [], question: "anything", keywords: [], embeddingModel: model })).toEqual(
      [],
    );
    expect(await retrieveKnowledge({ entries: glossary, question: "TAC", keywords: [], limit: 0 })).toEqual([]);
  });

  it("searches the hint and the keywords as well as the question", async () => {
    const retrieved = await retrieveKnowledge({
      entries: glossary,
      question: "Show the figure for last quarter",
      hint: "the figure is the SPM",
      keywords: [],
    });
    expect(retrieved.map(({ entry }) => entry.id)).toEqual(["spm"]);
  });
});

describe("retrieveKnowledge and short rules", () => {
  // defog's derm_treatment glossary: the month rule shares one word with the question, the long rules several.
  const long = (id: string, text: string) => entry(id, "rule", text.split(" ").slice(0, 12).join(" "), text);
  const entries = [
    long(
      "patients-treatments",
      "To count patients treated in each month, join the patients and treatments tables, filter the treatments to the period, group by the month and count distinct patient ids.",
    ),
    long(
      "biologic-treatments",
      "To count treatments with biologic drugs, join the treatments and drugs tables on drug_id and keep the drugs whose drug_type is biologic before counting the treatments.",
    ),
    long(
      "new-patients",
      "New patients are patients whose first treatment falls in the period: find each patient's earliest treatment start date and count the patients whose earliest start is inside it.",
    ),
    entry(
      "truncate",
      "rule",
      "Truncate start_dt to month for aggregation.",
      "Truncate start_dt to month for aggregation.",
    ),
    entry("weekends", "rule", "Weekends are Saturdays and Sundays.", "Weekends are Saturdays and Sundays."),
    entry("nulls", "rule", "Always order results with NULLS last.", "Always order results with NULLS last."),
  ];

  it("adds the short rules sharing a word with the question beyond the limit, and no other", async () => {
    const retrieved = await retrieveKnowledge({
      entries,
      question: "How many distinct patients had treatments in each of the last 3 months?",
      keywords: ["distinct patients", "treatments", "last 3 months"],
      embeddingModel: createOfflineEmbeddingModel(),
      limit: 2,
    });
    const ids = retrieved.map(({ entry }) => entry.id);
    expect(ids.slice(0, 2)).not.toContain("truncate");
    // The month rule, and "NULLS last" (it shares "last"); the weekend rule shares nothing.
    expect(ids.slice(2).sort()).toEqual(["nulls", "truncate"]);
  });

  it("adds at most three", async () => {
    const many = Array.from({ length: 6 }, (_, index) =>
      entry(`month-${index}`, "rule", `month rule ${index}`, `Rule ${index} for every month.`),
    );
    const retrieved = await retrieveKnowledge({ entries: many, question: "sales per month", keywords: [], limit: 1 });
    expect(retrieved).toHaveLength(4);
  });
});
