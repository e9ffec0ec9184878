import { describe, expect, it } from "vitest";
import { columnValueVotes, fuseValueVotes } from "./value-vote-fusion";

describe("columnValueVotes", () => {
  it("gives a keyword found in one column a full vote and spreads one found in many", () => {
    const votes = columnValueVotes([
      { keyword: "Rotterdam", column: 7, similarity: 1 },
      { keyword: "France", column: 1, similarity: 1 },
      { keyword: "France", column: 2, similarity: 1 },
      { keyword: "France", column: 3, similarity: 1 },
      { keyword: "France", column: 4, similarity: 1 },
    ]);
    expect(votes.get(7)).toBe(1);
    expect(votes.get(1)).toBeCloseTo(0.5);
  });

  it("ignores hits below the similarity threshold and keeps a column's best vote", () => {
    const votes = columnValueVotes([
      { keyword: "rotterdm", column: 7, similarity: 0.88 },
      { keyword: "rot", column: 8, similarity: 0.4 },
      { keyword: "Rotterdam", column: 7, similarity: 1 },
    ]);
    expect([...votes.keys()]).toEqual([7]);
    expect(votes.get(7)).toBe(1);
  });
});

describe("fuseValueVotes", () => {
  it("lifts a column whose value the question names above the ranking's first place", () => {
    expect(fuseValueVotes([0, 1, 2, 3], [{ keyword: "Rotterdam", column: 3, similarity: 1 }], 3)).toEqual([3, 0, 1]);
  });

  it("brings in a value column the ranking did not have, and leaves the ranking alone without hits", () => {
    expect(fuseValueVotes([0, 1], [{ keyword: "x", column: 9, similarity: 1 }], 3)).toEqual([0, 1, 9]);
    expect(fuseValueVotes([0, 1, 2], [], 2)).toEqual([0, 1]);
  });

  it("lifts a spread vote less than a full one", () => {
    const ranking = Array.from({ length: 30 }, (_, column) => column);
    const hits = [20, 21, 22, 23].map((column) => ({ keyword: "France", column, similarity: 1 }));
    const fused = fuseValueVotes(ranking, [...hits, { keyword: "Rotterdam", column: 25, similarity: 1 }], 30);
    expect(fused.indexOf(25)).toBeLessThan(fused.indexOf(20));
    expect(fused.indexOf(20)).toBeLessThan(fused.indexOf(0));
  });
});
