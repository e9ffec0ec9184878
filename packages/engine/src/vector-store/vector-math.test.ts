import { describe, expect, it } from "vitest";
import { TopK } from "./top-k";
import { dotProductAt, normalizeVector } from "./vector-math";

describe("vector math", () => {
  it("normalises to unit length and leaves a zero vector at zero", () => {
    expect([...normalizeVector([3, 4])]).toEqual([expect.closeTo(0.6, 6), expect.closeTo(0.8, 6)]);
    expect([...normalizeVector([0, 0])]).toEqual([0, 0]);
  });

  it("computes the dot product at a row offset for lengths that are not multiples of four", () => {
    const rows = Float32Array.from([9, 9, 1, 2, 3, 4, 5, 6, 7]);
    expect(dotProductAt(Float32Array.from([1, 1, 1, 1, 1, 1, 1]), rows, 2)).toBe(28);
    expect(dotProductAt(Float32Array.from([2]), rows, 8)).toBe(14);
  });
});

describe("TopK", () => {
  it("keeps the best entries, best first, ties broken by key", () => {
    const best = new TopK<number>(3);
    [0.1, 0.9, 0.5, 0.9, 0.3, 0.7].forEach((score, position) => {
      best.offer(score, `k${5 - position}`, position);
    });
    expect(best.sorted().map((entry) => [entry.key, entry.score])).toEqual([
      ["k2", 0.9],
      ["k4", 0.9],
      ["k0", 0.7],
    ]);
    const none = new TopK<number>(0);
    none.offer(1, "a", 1);
    expect(none.sorted()).toEqual([]);
  });
});
