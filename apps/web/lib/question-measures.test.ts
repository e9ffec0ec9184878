import { describe, expect, it } from "vitest";
import { foldWord, measuresNamedByQuestion } from "./question-measures";

const names = (...list: string[]) => list.map((name, column) => ({ column, name }));

describe("measuresNamedByQuestion", () => {
  it("finds the measure the question names among counts and amounts", () => {
    expect(
      measuresNamedByQuestion("What is the average order value by store?", names("orders", "average_order_value_usd")),
    ).toEqual([1]);
    expect(measuresNamedByQuestion("show the monthly revenue trend", names("orders", "revenue_usd"))).toEqual([1]);
    expect(measuresNamedByQuestion("how many orders per store?", names("orders", "revenue_usd"))).toEqual([0]);
    expect(measuresNamedByQuestion("mean spend per customer", names("orders", "avg_spent"))).toEqual([1]);
    expect(measuresNamedByQuestion("how many per store?", names("n", "revenue"))).toEqual([0]);
  });

  it("returns every tied measure, and nothing when the question names none or is absent", () => {
    expect(
      measuresNamedByQuestion(
        "which carriers are late most often?",
        names("shipments", "late_shipments", "late_percent"),
      ),
    ).toEqual([1, 2]);
    expect(measuresNamedByQuestion("break it down by store", names("orders", "revenue"))).toEqual([]);
    expect(measuresNamedByQuestion(undefined, names("orders"))).toEqual([]);
  });

  it("folds plurals, past tenses and synonyms", () => {
    expect(foldWord("Categories")).toBe("category");
    expect(foldWord("returned")).toBe("return");
    expect(foldWord("sales")).toBe("revenue");
    expect(foldWord("avg")).toBe("average");
    expect(foldWord("business")).toBe("business");
  });
});
