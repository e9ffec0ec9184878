import { describe, expect, it } from "vitest";
import { meanRecallByBudget, recallAtBudget } from "./retrieval-recall";

describe("recall", () => {
  it("is |gold ∩ top-k| / |gold| per question", () => {
    const gold = ["db.t.a", "db.t.b", "db.u.c", "db.u.d"];
    const retrieved = ["db.t.a", "db.x.y", "db.u.c", "db.t.b"];
    expect(recallAtBudget(gold, retrieved, 1)).toBe(0.25);
    expect(recallAtBudget(gold, retrieved, 3)).toBe(0.5);
    expect(recallAtBudget(gold, retrieved, 10)).toBe(0.75);
    expect(recallAtBudget(["DB.T.A"], ["db.t.a"], 1)).toBe(1);
    expect(recallAtBudget([], ["db.t.a"], 1)).toBe(1);
  });

  it("averages per budget over questions", () => {
    const recall = meanRecallByBudget(
      [
        { gold: ["a", "b"], retrieved: ["a", "c", "b"] },
        { gold: ["c"], retrieved: ["b", "c"] },
      ],
      [1, 2, 3],
    );
    expect(recall).toEqual({ "1": 0.25, "2": 0.75, "3": 1 });
  });
});
