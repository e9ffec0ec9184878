import { describe, expect, it } from "vitest";
import { seededRandom } from "../random/seeded-random";
import { executedCandidate as candidate } from "../testing/executed-candidate";
import { selectionSetup } from "../testing/selection-setup";
import { randomSelector } from "./random-selector";
import { selfConsistencySelector } from "./self-consistency-selector";

const noModel = () => {
  throw new Error("no model call expected");
};

describe("selfConsistencySelector", () => {
  it("chooses the largest cluster; confidence is its share of the candidates", async () => {
    const { options, calls } = await selectionSetup(
      [
        candidate(0, "SELECT 1", [["1"]]),
        candidate(1, "SELECT 2", [["2"]]),
        candidate(2, "SELECT 1 + 1", [["2"]]),
        candidate(3, "SELECT 4 / 2", [["2"]]),
        candidate(4, "SELECT 3", [["3"]]),
      ],
      noModel,
    );
    const outcome = await selfConsistencySelector.select(options);
    expect(outcome.cluster.members.map((member) => member.index)).toEqual([1, 2, 3]);
    expect(outcome.confidence).toBe(3 / 5);
    expect(outcome.basis).toBe("3 of 5 candidates returned this result (the largest of 3 clusters)");
    expect(calls).toEqual([]);
  });

  it("breaks a size tie by the earliest candidate", async () => {
    const { options } = await selectionSetup(
      [
        candidate(0, "SELECT 2", [["2"]]),
        candidate(1, "SELECT 1", [["1"]]),
        candidate(2, "SELECT 1", [["1"]]),
        candidate(3, "SELECT 2", [["2"]]),
      ],
      noModel,
    );
    const outcome = await selfConsistencySelector.select(options);
    expect(outcome.cluster.representative.index).toBe(0);
    expect(outcome.confidence).toBe(0.5);
  });
});

describe("randomSelector", () => {
  it("draws candidates uniformly with the seeded generator and answers with the drawn one's cluster", async () => {
    const candidates = [
      candidate(0, "SELECT 1", [["1"]]),
      candidate(1, "SELECT 2", [["2"]]),
      candidate(2, "SELECT 2", [["2"]]),
      candidate(3, "SELECT 2", [["2"]]),
    ];
    const { options } = await selectionSetup(candidates, noModel);
    const counts = new Map<number, number>();
    const random = seededRandom(7);
    for (let draw = 0; draw < 4000; draw++) {
      const outcome = await randomSelector.select({ ...options, random });
      const index = outcome.cluster.representative.index;
      counts.set(index, (counts.get(index) ?? 0) + 1);
      expect(outcome.confidence).toBe(outcome.cluster.members.length / 4);
    }
    // One candidate in four answers with cluster 0; three in four with cluster 1.
    expect((counts.get(0) ?? 0) / 4000).toBeCloseTo(0.25, 1);
    expect((counts.get(1) ?? 0) / 4000).toBeCloseTo(0.75, 1);
    const again = await randomSelector.select({ ...options, random: seededRandom(7) });
    const first = await randomSelector.select({ ...options, random: seededRandom(7) });
    expect(again.cluster).toBe(first.cluster);
  });
});
