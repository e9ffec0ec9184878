import { describe, expect, it } from "vitest";
import {
  connectivityScore,
  coverageScore,
  crushObjective,
  entropyGuidedScores,
  greedyCrushSelection,
  probeEntropy,
  softMaximum,
} from "./crush-objective";

// Hand computation for the two-probe, two-candidate example cos = [[1, -1], [0, 0]]:
// Eq. 1: probe 0 puts all mass on candidate 0 → H = 0; probe 1 is uniform → H = ln 2; mean H̄ = ln 2 / 2.
// Eq. 2: σ(ln2/2) = √2/(√2+1) = 0.585786, σ(−ln2/2) = 1/(√2+1) = 0.414214;
//        s = [[1·0.585786, 0·0.585786], [0.5·0.414214, 0.5·0.414214]] = [[0.585786, 0], [0.207107, 0.207107]].
const cosines = [
  [1, -1],
  [0, 0],
];

describe("CRUSH objective (Eq. 1-6)", () => {
  it("soft maximum is log-sum-exp (Eq. 3), 0 on the empty set, tempered by τ", () => {
    expect(softMaximum([])).toBe(0);
    expect(softMaximum([1])).toBeCloseTo(1, 12);
    expect(softMaximum([0, 0])).toBeCloseTo(Math.LN2, 12);
    expect(softMaximum([1, 1], 0.5)).toBeCloseTo(1 + 0.5 * Math.LN2, 12);
    expect(softMaximum([0.2, 0.9], 0.01)).toBeCloseTo(0.9, 6);
  });

  it("entropy of a probe's multinomial (Eq. 1)", () => {
    expect(probeEntropy([1, -1])).toBeCloseTo(0, 12);
    expect(probeEntropy([0, 0])).toBeCloseTo(Math.LN2, 12);
    expect(probeEntropy([1, 0, 0])).toBeCloseTo(-(0.5 * Math.log(0.5) + 2 * 0.25 * Math.log(0.25)), 12);
  });

  it("entropy-guided similarity (Eq. 2) matches the hand computation", () => {
    const scores = entropyGuidedScores(cosines);
    expect(scores[0]![0]).toBeCloseTo(0.585786, 6);
    expect(scores[0]![1]).toBeCloseTo(0, 12);
    expect(scores[1]![0]).toBeCloseTo(0.207107, 6);
    expect(scores[1]![1]).toBeCloseTo(0.207107, 6);
  });

  it("coverage O1 (Eq. 4) matches the hand computation", () => {
    const scores = entropyGuidedScores(cosines);
    // R = {0}: 0.585786 + 0.207107
    expect(coverageScore(scores, [0])).toBeCloseTo(0.792893, 6);
    // R = {0, 1}: ln(e^0.585786 + e^0) + ln(2·e^0.207107) = 1.028334 + 0.900254
    expect(coverageScore(scores, [0, 1])).toBeCloseTo(1.928588, 5);
    expect(coverageScore(scores, [])).toBe(0);
  });

  it("connectivity O2 (Eq. 5) and the combined objective (Eq. 6)", () => {
    const edge = (left: number, right: number) =>
      (left === 0 && right === 1) || (left === 1 && right === 0) ? 0.01 : 0;
    expect(connectivityScore(edge, [0, 1])).toBeCloseTo(0.02, 12);
    // d0, d1: ln(e^0.01 + e^0) = 0.698160 each; d2: ln 2 = 0.693147
    expect(connectivityScore(edge, [0, 1, 2])).toBeCloseTo(2.089467, 5);
    const scores = entropyGuidedScores(cosines);
    expect(crushObjective(scores, edge, [0, 1])).toBeCloseTo(1.928588 + 0.02, 5);
    expect(crushObjective(scores, edge, [0, 1], { connectivityWeight: 0 })).toBeCloseTo(1.928588, 5);
  });

  it("greedy selection covers every probe instead of piling onto one", () => {
    // Probe A likes candidates 0 and 1, probe B only candidate 2.
    const scores = entropyGuidedScores([
      [0.9, 0.85, 0.1],
      [0.1, 0.1, 0.6],
    ]);
    const noEdges = () => 0;
    expect(greedyCrushSelection(scores, noEdges, 3, 2, { coverageTemperature: 0.1 })).toEqual([0, 2]);
    expect(greedyCrushSelection(scores, noEdges, 3, 5, { coverageTemperature: 0.1 })).toEqual([0, 2, 1]);
  });

  it("greedy gains equal objective differences, and edges break ties toward connected columns", () => {
    const scores = [
      [0.5, 0.5, 0.5],
      [0.2, 0.2, 0.2],
    ];
    const edge = (left: number, right: number) => (left + right === 2 && left !== right ? 0.01 : 0);
    const order = greedyCrushSelection(scores, edge, 3, 3);
    expect(order[0]).toBe(0);
    expect(order[1]).toBe(2);
    for (let size = 1; size <= 3; size++) {
      const prefix = order.slice(0, size);
      const best = [0, 1, 2]
        .filter((column) => !order.slice(0, size - 1).includes(column))
        .map((column) => crushObjective(scores, edge, [...order.slice(0, size - 1), column]));
      expect(crushObjective(scores, edge, prefix)).toBeCloseTo(Math.max(...best), 12);
    }
  });
});
