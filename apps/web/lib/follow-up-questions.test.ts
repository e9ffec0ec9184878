import { describe, expect, it } from "vitest";
import { followUpQuestions } from "./follow-up-questions";

const fields = [
  { name: "store", dataTypeId: 25 },
  { name: "average_order_value_usd", dataTypeId: 1700 },
];
const rows = [
  ["Berlin Mitte", "95"],
  ["Online US", "80"],
];

describe("followUpQuestions", () => {
  it("offers the scripted demo's recorded questions closest to this one, never one already asked", () => {
    const recorded = [
      "how many customers are there?",
      "what is the average order value by store?",
      "which carriers deliver late most often?",
      "how much revenue did each store bring in?",
      "how many orders were cancelled in 2025?",
    ];
    expect(
      followUpQuestions({
        question: "what is the average order value by store?",
        fields,
        rows,
        recordedQuestions: recorded,
        asked: ["how many customers are there?"],
      }),
    ).toEqual([
      "how much revenue did each store bring in?",
      "how many orders were cancelled in 2025?",
      "which carriers deliver late most often?",
    ]);
  });

  it("asks about the drawn measure per label, or over time, with a language model", () => {
    expect(followUpQuestions({ question: "what is the average order value by store?", fields, rows })).toEqual([
      "Which store has the lowest average order value usd?",
      "What share of the total average order value usd does each store have?",
      "How has the average order value usd of each store changed month by month?",
    ]);
    const monthly = followUpQuestions({
      question: "monthly revenue",
      fields: [
        { name: "month", dataTypeId: 1082 },
        { name: "revenue", dataTypeId: 1700 },
      ],
      rows: [
        ["2025-01-01", "1"],
        ["2025-02-01", "2"],
      ],
    });
    expect(monthly[0]).toBe("Which month had the highest revenue?");
    expect(followUpQuestions({ question: "names", fields: [{ name: "name", dataTypeId: 25 }], rows: [["a"]] })).toEqual(
      [],
    );
  });
});
