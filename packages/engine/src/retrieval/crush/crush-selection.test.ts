import { describe, expect, it } from "vitest";
import { crushProbeVector, selectColumnsCollectively } from "./crush-selection";
import { ColumnVectorIndex, rankScores } from "./dense-column-ranking";
import type { SchemaColumn } from "./schema-column";
import { buildSchemaGraph, inferKeyLinks } from "./schema-graph";

const columns: SchemaColumn[] = [
  { database: "shop", table: "customers", column: "customer_id" },
  { database: "shop", table: "customers", column: "name" },
  { database: "shop", table: "orders", column: "customer_id" },
  { database: "shop", table: "orders", column: "amount" },
  { database: "race", table: "drivers", column: "id" },
  { database: "race", table: "results", column: "driver_id" },
  { database: "race", table: "results", column: "points" },
];

// Unit axis vectors: column i points along axis i.
const axis = (position: number, size = 7) => Array.from({ length: size }, (_, index) => (index === position ? 1 : 0));

describe("schema graph", () => {
  it("infers key links by shared key name and by <table>_id → <table>.id", () => {
    const links = inferKeyLinks(columns);
    expect(links).toContainEqual({ from: 0, to: 2 });
    expect(links).toContainEqual({ from: 5, to: 4 });
    expect(links).toHaveLength(2);
    const graph = buildSchemaGraph(columns, links);
    expect(graph.connection(0, 1)).toBe("same-table");
    expect(graph.connection(2, 0)).toBe("key-link");
    expect(graph.connection(1, 3)).toBe("same-database");
    expect(graph.connection(1, 4)).toBeUndefined();
    expect(graph.connected(1, 3)).toBe(false);
    expect(graph.connected(0, 0)).toBe(false);
  });
});

describe("CRUSH selection", () => {
  const index = new ColumnVectorIndex(columns.map((_, position) => axis(position)));
  const graph = buildSchemaGraph(columns, inferKeyLinks(columns));

  it("mixes the question into each probe", () => {
    const probe = crushProbeVector([1, 0], [0, 1], 0.5);
    expect(probe[0]).toBeCloseTo(Math.SQRT1_2, 12);
    expect(probe[1]).toBeCloseTo(Math.SQRT1_2, 12);
    expect(crushProbeVector([1, 0], [0, 1], 0)).toEqual([0, 1]);
  });

  it("takes each probe's best column first, then fills the budget from the fallback ranking", () => {
    const probeVectors = [
      [0, 0.2, 0, 1, 0, 0, 0], // amount, a little name
      [0, 1, 0, 0, 0, 0, 0.1], // name, a little points
    ];
    const picked = selectColumnsCollectively(
      { probeVectors, columns: index, graph, budget: 7, fallbackRanking: [6, 5, 4, 3, 2, 1, 0] },
      { neighboursPerProbe: 2, candidateLimit: 3 },
    );
    expect(picked.slice(0, 2).sort()).toEqual([1, 3]);
    expect(picked[2]).toBe(6); // the third candidate, points, from probe 2's second neighbour
    expect(picked.slice(3)).toEqual([5, 4, 2, 0]);
    expect(new Set(picked).size).toBe(7);
  });

  it("without a fallback ranking fills by the best cosine to any probe", () => {
    const picked = selectColumnsCollectively(
      { probeVectors: [axis(2), [0, 0, 0, 0, 0.5, 0, 0]], columns: index, graph, budget: 3 },
      { neighboursPerProbe: 1 },
    );
    expect(picked.slice(0, 2).sort()).toEqual([2, 4]);
    expect(picked).toHaveLength(3);
  });

  it("ranks scores best first with ties to the lower index", () => {
    expect(rankScores([0.1, 0.5, 0.5, 0.2])).toEqual([1, 2, 3, 0]);
    expect(rankScores([0.1, 0.5, 0.5, 0.2], 2)).toEqual([1, 2]);
    // Small limits take the partial-selection path; it must agree with the full sort, ties by index.
    const scores = Array.from({ length: 500 }, (_, index) => Math.round(Math.sin(index * 7.3) * 20) / 20);
    const full = Array.from({ length: 500 }, (_, index) => index).sort(
      (left, right) => scores[right]! - scores[left]! || left - right,
    );
    for (const limit of [0, 1, 7, 60]) expect(rankScores(scores, limit)).toEqual(full.slice(0, limit));
    // Large limits sort positives, keep zeros in index order, then sort negatives: still the full sort.
    for (const limit of [100, 250, 500]) expect(rankScores(scores, limit)).toEqual(full.slice(0, limit));
    expect(rankScores([0, -0.2, 0.3, 0, -0.1, 0.3])).toEqual([2, 5, 0, 3, 4, 1]);
  });
});
